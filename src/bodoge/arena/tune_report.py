"""What `bodoge tune` writes: `tune.json` (everything), `report.md` (what to know before reading it,
the findings on the recommended variant, the variant and how to reproduce it, the recommendation
played again with free agents at every player count, the Pareto set, every goal defined) and a
self-contained `report.html` (the same rendered, with its plots embedded beside the tables they show:
the Pareto front after the Pareto set, each goal against each option after the trials). In English
(`lang="en"`) or Japanese (`lang="ja"`); tune.json is the same for both."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path
from typing import Any

from bodoge.arena import html
from bodoge.arena.tune import flat_options

LANGS = ("en", "ja")


def write(result: dict[str, Any], out: Path, plots: bool = True, lang: str = "en") -> None:
    """tune.json, report.md and report.html of a tune's `result` in `out`; the reports in `lang`."""
    if lang not in LANGS:
        from bodoge.errors import BadOption

        raise BadOption("lang", lang, "en or ja")
    out.mkdir(parents=True, exist_ok=True)
    (out / "tune.json").write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n")
    markdown = report_md(result, lang=lang)
    (out / "report.md").write_text(markdown)
    images = figures(result, lang) if plots else []
    (out / "report.html").write_text(report_html(result, images, lang))


def _say(lang: str, en: str, ja: str) -> str:
    return ja if lang == "ja" else en


def _value(entry: dict[str, Any] | None) -> str:
    if not entry or entry.get("mean") is None:
        return "—"
    mean, low, high = entry["mean"], entry.get("low"), entry.get("high")
    if low is None or high is None:
        return f"{mean:.3f}"
    return f"{mean:.3f} ({low:.3f} … {high:.3f})"


def _short(entry: dict[str, Any] | None, share: bool) -> str:
    """A number beside the goals, its mean only (its interval is in tune.json): a share in percent."""
    if not entry or entry.get("mean") is None:
        return "—"
    mean = float(entry["mean"])
    if share:
        return f"{mean:.0%}" if abs(mean) >= 0.1 or mean == 0 else f"{mean:.1%}"
    return f"{mean:.2f}"


def _options(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in options.items())


def _alike(result: dict[str, Any]) -> list[int]:
    return list(result.get("indistinguishable_from_recommended") or [])


def _apart(a: dict[str, Any] | None, b: dict[str, Any] | None) -> bool:
    """Two values' 95% intervals do not overlap (as `tune.told_apart`; an unknown one: not apart)."""
    if not a or not b or None in (a.get("low"), a.get("high"), b.get("low"), b.get("high")):
        return False
    return bool(a["high"] < b["low"] or b["high"] < a["low"])


def _table(
    result: dict[str, Any], trials: list[dict[str, Any]], lang: str = "en", versus: bool = False
) -> list[str]:
    goals = [g["name"] for g in result["goals"]]
    required = [f"require {c}" for c in result["config"]["require"]]
    shown = result.get("metrics") or []
    best = result.get("recommended")
    compare = versus and best is not None
    head = [
        _say(lang, "trial", "試行"),
        _say(lang, "options", "オプション"),
        *goals,
        *[_say(lang, r, f"条件 {r.removeprefix('require ')}") for r in required],
        *[m["words"][lang] for m in shown],
    ]
    chosen: dict[str, Any] = {}
    if compare:
        assert best is not None
        head.append(_say(lang, f"vs trial {best['trial']}", f"試行 {best['trial']} と比べて"))
        chosen = next((t["values"] for t in result["trials"] if t["trial"] == best["trial"]), {})
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in trials:
        cells = [str(row["trial"]), _options(row["options"])]
        cells += [_value(row["values"].get(name)) for name in goals + required]
        cells += [_short((row.get("metrics") or {}).get(m["name"]), m["share"]) for m in shown]
        if compare:
            assert best is not None
            apart = [g for g in goals if _apart(row["values"].get(g), chosen.get(g))]
            if row["trial"] == best["trial"]:
                cells.append(_say(lang, "recommended", "おすすめ"))
            elif not apart:
                cells.append(_say(lang, "cannot tell apart", "区別できない"))
            else:
                cells.append(_say(lang, f"differs on {', '.join(apart)}", f"{', '.join(apart)} で差がある"))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _findings(result: dict[str, Any], lang: str = "en") -> list[str]:
    found = result.get("findings")
    best = result.get("recommended")
    if not best:
        return []
    lines = [
        _say(
            lang,
            f"## Findings on the recommended variant (trial {best['trial']})",
            f"## おすすめ案（試行 {best['trial']}）で見つかったこと",
        ),
        "",
    ]
    if not found:
        return [
            *lines,
            _say(
                lang,
                "No findings: no number of its games lies clearly past a finding's threshold (docs/findings.md).",
                "見つかったことはありません：この案のゲームのどの数値も、はっきりと基準を越えてはいません"
                "（docs/findings.md）。",
            ),
            "",
        ]
    lines += [
        _say(
            lang,
            "What its numbers mean for the design, most important first, each only where its 95% interval "
            "lies past its threshold (docs/findings.md). A tune plays no experiments: run a finding's "
            "command to test it.",
            "この案の数値がゲームデザインにとって何を意味するか、大事な順に並べています。95% 区間がまるごと"
            "基準の向こう側にあるものだけです（docs/findings.md）。調整では確かめの実験はしていません。"
            "確かめるには、それぞれのコマンドを実行してください。",
        ),
        "",
    ]
    for i, f in enumerate(found, 1):
        lines += [
            f"{i}. **{f['kind']}**: {f['text'].get(lang, f['text']['en'])}",
            "",
            "   ```sh",
            f"   {f['experiment']}",
            "   ```",
            "",
        ]
    return lines


def _warnings(result: dict[str, Any], lang: str) -> list[str]:
    """What to know before reading the rest: goals and options that did not vary, and findings that
    free agents show and the tune's own bots did not."""
    said = [w["text"].get(lang, w["text"]["en"]) for w in result.get("warnings") or []]
    checked = result.get("recheck") or {}
    new = [(c["players"], c["new_findings"]) for c in checked.get("counts", []) if c.get("new_findings")]
    if new:
        where = _say(lang, "; ", "、").join(
            _say(lang, f"{n} players: {', '.join(kinds)}", f"{n} 人：{', '.join(kinds)}") for n, kinds in new
        )
        said.append(
            _say(
                lang,
                f"With agents that choose freely, the recommended variant shows findings the tune's own "
                f"games did not ({where}): see \u201cChecked with free agents at every player count\u201d.",
                f"自由に選ぶボットで遊ぶと、調整のときには出なかった発見がおすすめ案に出ました（{where}）。"
                "「自由に選ぶボットで、すべての人数で確かめ直し」を見てください。",
            )
        )
    lines = []
    for text in said:
        lines += [f"> **{_say(lang, 'Warning:', '注意：')}** {text}", ""]
    return lines


def _recommended(result: dict[str, Any], lang: str) -> list[str]:
    recommended = result.get("recommended")
    if not recommended:
        return [
            _say(
                lang, "No trial met every constraint yet.", "まだどの試行もすべての条件を満たしていません。"
            ),
            "",
        ]
    reason = recommended["reason"]
    if lang == "ja":
        m = re.search(r"at least (\d+%)", reason)
        reason = (
            "パレート集合の中で、いちばん悪い目標がいちばんましな案です：どの目標でも、見られた最悪の値から"
            f"最良の値までの少なくとも {m[1] if m else '?'} のところにあります"
        )
    head = _say(
        lang,
        f"Trial {recommended['trial']}: {_options(recommended['options'])}: {reason}.",
        f"試行 {recommended['trial']}：{_options(recommended['options'])}：{reason}。",
    )
    alike = _alike(result)
    if alike:
        count = len(alike) + 1
        others = ", ".join(str(t) for t in alike)
        head += _say(
            lang,
            f" It is one of {count} trials these games cannot tell apart: "
            f"trial{'s' if count > 2 else ''} {others} and this one "
            "(their 95% intervals overlap this one's on every goal). Take them as equally good here: more "
            "games per trial (--games), or another goal, would tell them apart.",
            f"ただし、このゲーム数では区別できない {count} 件の試行のうちの1つです：試行 {others} とこの試行"
            "（どの目標でも 95% 区間がこの試行と重なっています）。ここでは同じくらい良い案とみなしてください。"
            "1試行あたりのゲーム数（--games）を増やすか、目標を加えれば区別できます。",
        )
    return [
        _say(lang, "## Recommended", "## おすすめ"),
        "",
        head,
        "",
        _say(
            lang,
            "Its numbers again, with the full report of `bodoge sim`:",
            "同じ数値を `bodoge sim` の詳しいレポートで出すには：",
        ),
        "",
        "```sh",
        recommended["command"],
        "```",
        "",
    ]


def _recheck(result: dict[str, Any], lang: str) -> list[str]:
    """The recommendation played again by free agents at every player count (`tune_recheck.recheck`)."""
    checked = result.get("recheck")
    if not checked:
        return []
    config = result["config"]
    goals = [g["name"] for g in result["goals"]]
    agents = ", ".join(f"`{a}`" for a in checked["agents"])
    lines = [
        _say(
            lang,
            "## Checked with free agents at every player count",
            "## 自由に選ぶボットで、すべての人数で確かめ直し",
        ),
        "",
        _say(
            lang,
            f"The recommended options played again by {agents}, choosing freely (no avoid=, prefer= or at=), "
            f"{checked['games']} games at each player count, seed {checked['seed']}; the tune itself played "
            f"{checked['tuned_players']} players with {', '.join(config['agents'])}. A finding here that "
            "the tune's own findings lack (**new**) means the variant holds only for the bots or the "
            "player count it was tuned with.",
            f"おすすめ案のオプションで、{agents} が自由に選ぶ形（avoid= / prefer= / at= なし）で、"
            f"人数ごとに {checked['games']} ゲームずつ遊び直しました（シード {checked['seed']}）。"
            f"調整そのものは {checked['tuned_players']} 人、{', '.join(f'`{a}`' for a in config['agents'])} で行っています。"
            "調整のときには出なかった発見（**新**）がここに出たら、この案は調整に使ったボットや人数の"
            "ときにしか成り立たないということです。",
        ),
        "",
    ]
    head = [
        _say(lang, "players", "人数"),
        _say(lang, "agents", "ボット"),
        *goals,
        _say(lang, "ties", "同点勝利"),
        _say(lang, "no winner", "勝者なし"),
        _say(lang, "findings", "見つかったこと"),
    ]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    new_mark = _say(lang, "**new**", "**新**")
    for c in checked["counts"]:
        if "refused" in c:
            cells = [str(c["players"]), ", ".join(f"`{a}`" for a in c["agents"])] + ["—"] * (len(goals) + 2)
            cells.append(
                _say(lang, f"not playable: {c['refused']}", f"この人数では遊べません：{c['refused']}")
            )
        else:
            kinds = [
                f"{f['kind']} {new_mark}" if f["kind"] in c["new_findings"] else f["kind"]
                for f in c["findings"]
            ]
            cells = [str(c["players"]), ", ".join(f"`{a}`" for a in c["agents"])]
            cells += [_value(c["values"].get(g)) for g in goals]
            cells += [_value(c.get("tie")), _value(c.get("no_winner"))]
            cells.append(", ".join(kinds) or _say(lang, "none", "なし"))
        lines.append("| " + " | ".join(cells) + " |")
    lines.append("")
    for c in checked["counts"]:
        if not c.get("findings"):
            continue
        lines += [_say(lang, f"### {c['players']} players", f"### {c['players']} 人"), ""]
        for i, f in enumerate(c["findings"], 1):
            mark = f" {new_mark}" if f["kind"] in c["new_findings"] else ""
            lines += [f"{i}. **{f['kind']}**{mark}: {f['text'].get(lang, f['text']['en'])}", ""]
    lines += [
        _say(lang, "Each count's games again:", "それぞれの人数のゲームをもう一度遊ぶには："),
        "",
        "```sh",
        *[c["command"] for c in checked["counts"] if "refused" not in c],
        "```",
        "",
    ]
    return lines


_GOALS_JA = {
    "balance": "どの席の勝率と公平な勝率 1/n との差のうち、いちばん大きいもの（0：どの席も同じくらい勝つ）",
    "skill": "最初のボットの勝率から公平な勝率を引いたもの。ボットは席を回して座ります"
    "（既定の --agents heuristic,random では、上手な打ち方がどれだけ報われるか）",
    "drama": "1ゲームあたりのリードの入れ替わり：得点でトップにいる人が何回変わったか",
}


def _goal_line(goal: dict[str, Any], lang: str) -> str:
    if lang != "ja":
        return f"- **{goal['name']}** ({goal['direction']}): {goal['definition']}."
    direction = "小さいほどよい" if goal["direction"] == "minimize" else "大きいほどよい"
    name = goal["name"]
    definition = _GOALS_JA.get(name)
    if definition is None:
        number, _, bounds = name.partition("=")
        definition = (
            f"1ゲームあたりの {number} の平均が {bounds} の範囲からどれだけ外れているか（範囲内なら 0）"
        )
    return f"- **{name}**（{direction}）：{definition}。"


def _definitions(result: dict[str, Any], lang: str) -> list[str]:
    config = result["config"]
    lines = [_say(lang, "## Definitions", "## 用語"), ""]
    for goal in result["goals"]:
        lines.append(_goal_line(goal, lang))
    for c in config["require"]:
        lines.append(
            _say(
                lang,
                f"- **require {c}**: a trial counts only if it holds (its mean; a trial stops early when its whole interval breaks it).",
                f"- **条件 {c}**：これを満たす試行だけを数えます（平均で判断します。区間がまるごと条件を破って"
                "いれば、その試行は途中で打ち切ります）。",
            )
        )
    for m in result.get("metrics") or []:
        lines.append(
            _say(
                lang,
                f"- **{m['words']['en']}**: {m['definition']['en']}.",
                f"- **{m['words']['ja']}**：{m['definition']['ja']}。",
            )
        )
    if result.get("metrics"):
        lines.append(
            _say(
                lang,
                "- The numbers beside the goals are means over the trial's games (shares in percent); their "
                "intervals are in tune.json.",
                "- 目標の右の数値は、その試行のゲーム全体の平均です（割合は % で表示）。区間は tune.json に"
                "あります。",
            )
        )
    lines += [
        _say(
            lang,
            "- **(a … b)**: the 95% interval over deals (Student t; games of one deal averaged first). Two "
            "trials are told apart on a goal only where their intervals do not overlap; more games per "
            "trial (--games) narrow every interval by the square root of the deals.",
            "- **(a … b)**：配り札を単位にした 95% 区間（t 分布。同じ配り札のゲームは先に平均します）。"
            "2つの試行をある目標で区別できるのは、区間が重ならないときだけです。1試行あたりのゲーム数"
            "（--games）を増やすと、区間は配り札の数の平方根に比例して狭くなります。",
        ),
    ]
    if "indistinguishable_from_recommended" in result:
        lines.append(
            _say(
                lang,
                "- **cannot tell apart**: a trial of the Pareto set whose 95% intervals overlap the "
                "recommended trial's on every goal. These games do not show which of them is better; the "
                "rule is the cautious one (a test paired on the same deals might separate some).",
                "- **区別できない**：パレート集合の試行のうち、どの目標でも 95% 区間がおすすめ案と重なる"
                "もの。このゲーム数では、どちらが良いかは分かりません（慎重な判定です。同じ配り札どうしで"
                "比べる検定なら区別できるものもあるかもしれません）。",
            )
        )
    lines += [
        _say(
            lang,
            "- **trial**: one variant, numbered in the order the search proposed it (Optuna's TPE sampler).",
            "- **試行**：1つの案。探索（Optuna の TPE サンプラー）が出した順に番号を付けています。",
        ),
        "",
    ]
    return lines


def report_md(result: dict[str, Any], figures: dict[str, list[str]] | None = None, lang: str = "en") -> str:
    """The report; `figures` puts images (Markdown lines) after a section: 'pareto', 'trials'."""
    figures = figures or {}
    config = result["config"]
    trials = result["trials"]
    done = [t for t in trials if t["state"] == "complete"]
    front = [t for t in done if t["trial"] in result["pareto"]]
    goal_names = ", ".join(g["name"] for g in result["goals"])
    if lang == "ja":
        lines = [
            f"# {config['game']}（{config['players']} 人）のオプション調整",
            "",
            f"探した範囲：{', '.join(config['space'])}。目標：{goal_names}。"
            + (f"条件：{', '.join(config['require'])}。" if config["require"] else ""),
            f"最初の席から順にボット：{', '.join(f'`{a}`' for a in config['agents'])}。1試行あたり {config['games']} ゲーム、"
            f"シード {config['seed']}：どの試行も同じ配り札を、席を回して遊びます。",
            f"試行：{len(done)} 案を遊び、{len(trials) - len(done)} 案は途中で打ち切りました（半分のゲームの"
            "時点で、区間がまるごと条件を破っていたため）。探索が同じ案をもう一度出したときは1回だけ載せています。",
            "",
        ]
    else:
        lines = [
            f"# Tuning {config['game']}, {config['players']} players",
            "",
            f"Space: {', '.join(config['space'])}. Goals: {goal_names}."
            + (f" Constraints: {', '.join(config['require'])}." if config["require"] else ""),
            f"Agents by starting seat: {', '.join(config['agents'])}; {config['games']} games a trial, "
            f"seed {config['seed']}: every trial plays the same deals, seats rotated.",
            f"Trials: {len(done)} variants played, {len(trials) - len(done)} stopped early (a constraint "
            "broken past its interval after half their games); a variant the search proposed again is "
            "listed once.",
            "",
        ]
    lines += _warnings(result, lang)
    lines += _findings(result, lang)
    lines += _recommended(result, lang)
    lines += _recheck(result, lang)
    lines += [
        _say(lang, "## The Pareto set", "## パレート集合"),
        "",
        _say(
            lang,
            "No other trial is at least as good on every goal and better on one.",
            "どの目標でも同じかそれ以上で、しかもどれかで上回る、というほかの試行がない試行です。",
        ),
        "",
    ]
    lines += _table(result, front, lang, versus="indistinguishable_from_recommended" in result)
    lines += ["", *figures.get("pareto", [])]
    lines += ["", _say(lang, "## Every trial", "## すべての試行"), ""]
    lines += _table(result, sorted(trials, key=lambda t: t["trial"]), lang)
    lines += ["", *figures.get("trials", [])]
    lines += ["", *_definitions(result, lang)]
    return "\n".join(lines)


def varying_goals(result: dict[str, Any]) -> list[str]:
    """The goals whose value is not the same in every finished trial (the others' plots say nothing)."""
    constant = {w.get("goal") for w in result.get("warnings") or [] if w.get("kind") == "goal_constant"}
    done = [t for t in result["trials"] if t["state"] == "complete"]
    out = []
    for goal in (g["name"] for g in result["goals"]):
        means = {t["values"].get(goal, {}).get("mean") for t in done}
        if goal not in constant and len(means) > 1:
            out.append(goal)
    return out


def varied_options(result: dict[str, Any]) -> list[str]:
    """The options (map entries spread out) that took more than one value over the finished trials."""
    done = [t for t in result["trials"] if t["state"] == "complete"]
    names = sorted({k for t in done for k in flat_options(t["options"])})
    return [n for n in names if len({json.dumps(flat_options(t["options"]).get(n)) for t in done}) > 1]


def _cjk_font() -> str | None:
    """A font with Japanese glyphs that matplotlib knows, if any (else the plots keep English words)."""
    from matplotlib import font_manager

    wanted = (
        "Noto Sans CJK JP",
        "Noto Serif CJK JP",
        "IPAexGothic",
        "IPAGothic",
        "Hiragino Sans",
        "Yu Gothic",
    )
    names = {f.name for f in font_manager.fontManager.ttflist}
    return next((w for w in wanted if w in names), None)


PARETO_TITLES = ("Pareto front", "パレート前線")


def figures(result: dict[str, Any], lang: str = "en") -> list[tuple[str, str]]:
    """(title, base64 PNG): the Pareto front (the first two goals that vary, or the goal by trial), each
    varying goal against each varied option. Goals with one value in every finished trial and options
    never varied get no plot (a flat line says nothing)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    done = [t for t in result["trials"] if t["state"] == "complete"]
    goals = varying_goals(result)
    if not done or not goals:
        return []
    font = _cjk_font() if lang == "ja" else None
    words = lang if font else "en"
    out = []

    def png(fig: Any) -> str:
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
        plt.close(fig)
        return base64.b64encode(buffer.getvalue()).decode()

    with matplotlib.rc_context({"font.family": [font, "DejaVu Sans"]} if font else {}):
        fig, ax = plt.subplots(figsize=(5.5, 4))
        front = set(result["pareto"])
        xs = [t["values"][goals[0]]["mean"] for t in done]
        ys = [t["values"][goals[1]]["mean"] for t in done] if len(goals) > 1 else [t["trial"] for t in done]
        colors = ["#b3412f" if t["trial"] in front else "#999999" for t in done]
        ax.scatter(xs, ys, c=colors)
        for t, x, y in zip(done, xs, ys, strict=True):
            ax.annotate(str(t["trial"]), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax.set_xlabel(goals[0])
        ax.set_ylabel(goals[1] if len(goals) > 1 else _say(words, "trial", "試行"))
        ax.set_title(_say(words, "Pareto front (red)", "パレート前線（赤）"))
        out.append((_say(lang, *PARETO_TITLES), png(fig)))
        names = varied_options(result)
        for goal in goals:
            for name in names:
                points = [(flat_options(t["options"]).get(name), t["values"][goal]) for t in done]
                numeric = [
                    (float(x), v) for x, v in points if isinstance(x, int | float) and not isinstance(x, bool)
                ]
                if not numeric:
                    continue
                fig, ax = plt.subplots(figsize=(4.5, 3.2))
                ax.errorbar(
                    [x for x, _ in numeric],
                    [v["mean"] for _, v in numeric],
                    yerr=[  # never below 0 (a study written before range goals' intervals held their mean)
                        [
                            max(0.0, v["mean"] - (v["low"] if v["low"] is not None else v["mean"]))
                            for _, v in numeric
                        ],
                        [
                            max(0.0, (v["high"] if v["high"] is not None else v["mean"]) - v["mean"])
                            for _, v in numeric
                        ],
                    ],
                    fmt="o",
                    capsize=3,
                )
                ax.set_xlabel(name)
                ax.set_ylabel(goal)
                out.append((_say(lang, f"{goal} against {name}", f"{name} ごとの {goal}"), png(fig)))
    return out


def report_html(result: dict[str, Any], images: list[tuple[str, str]], lang: str = "en") -> str:
    """One file, nothing fetched: the report rendered (markdown-it-py), the Pareto front beside the
    Pareto set and each goal against each option after the trials."""
    placed: dict[str, list[str]] = {"pareto": [], "trials": []}
    for title, data in images:
        where = "pareto" if title in PARETO_TITLES else "trials"
        placed[where].append(f"![{title}](data:image/png;base64,{data})")
    placed = {k: [" ".join(v)] if v else [] for k, v in placed.items()}  # side by side
    title = _say(lang, "bodoge tune: ", "bodoge tune：") + result["config"]["game"]
    page = html.page(title, report_md(result, placed, lang))
    return page.replace("<html lang='en'>", f"<html lang='{lang}'>", 1)
