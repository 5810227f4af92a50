"""The words of `bodoge sim`'s report (report.py) in each language it is written in: English, the
report's own, and Japanese, for the designers who read it in Japanese (`--lang ja`).

Every phrase is here, keyed by name, so that a translator works on one file:
- `PHRASES`: the report's sentences and headings, {en, ja}, as `str.format` templates (`t`);
- `NAMES_JA` and `GLOSSARY_JA`: each name a table shows (keyed by its English name, which report.py
  keeps as the key of its tables and of its English glossary) with its Japanese name and meaning;
- `METRICS_JA`: a game's numbers (`bodoge.arena.metrics`) as (name, meaning); a game may add its own
  in its `metrics` part as `DEFINITIONS_JA = {number: (name, meaning)}`;
- the words of the parts of a summary written elsewhere in English: its warnings, the seat-balance
  test's reasons, the findings' kinds and evidence, the review's tables.

Japanese follows the games' own Japanese texts (`games/<game>/texts/ja.toml`) for game words and the
findings' Japanese (`arena/findings.py`) for the report's: 勝率, 席, 配札, 公平な割合, 席バランス検定.
"""

from __future__ import annotations

import re
from typing import Any

from bodoge.arena import quality

#: The languages a report is written in.
LANGS = ("en", "ja")


def check_lang(lang: str) -> str:
    """`lang` if a report can be written in it, else a ValueError naming the languages it can."""
    if lang not in LANGS:
        raise ValueError(f"a report's language is one of {', '.join(LANGS)}, not {lang!r}")
    return lang


#: The report's sentences and headings, by name: {lang: template}.
PHRASES: dict[str, dict[str, str]] = {
    "title": {"en": "{game}, {n} players: {games} games", "ja": "{game}、{n}人：{games}ゲーム"},
    "html_title": {"en": "bodoge sim: {game}, {n} players", "ja": "bodoge sim：{game}、{n}人"},
    "intro": {
        "en": "Agents (seat order before rotation): {agents}. Seed {seed}; seat rotation {rotate}, "
        "duplicate deals {duplicate}. Intervals are 95% confidence intervals with the deal as the unit "
        "unless a table says otherwise; ▲/▼: significantly above/below the fair share 1/{n}. Every name "
        "is defined at the end.",
        "ja": "ボット（ローテーション前の席順）：{agents}。シード {seed}。席のローテーション{rotate}、"
        "同じ配札を席を替えて配り直すデュプリケート{duplicate}。区間は、表に断りがない限り、配札を単位"
        "とした95%信頼区間です。▲/▼：公平な割合 1/{n} より有意に上/下。用語はすべて最後に説明します。",
    },
    "on": {"en": "on", "ja": "あり"},
    "off": {"en": "off", "ja": "なし"},
    "agents_joined": {"en": ", ", "ja": "、"},
    "warning": {"en": "> **Warning:** {text}.", "ja": "> **注意：** {text}。"},
    "findings": {"en": "Findings", "ja": "所見"},
    "findings_note": {
        "en": "Findings: what the numbers mean for the design, most important first, each reported only "
        "where its 95% interval lies past its threshold (docs/findings.md), with a command that tests it.",
        "ja": "所見：数値がゲームのデザインにとって何を意味するか。重要なものから順に、95%区間がしきい値を"
        "はっきり越えたものだけを挙げ（docs/findings.md）、それを確かめるコマンドを添えています。",
    },
    "no_findings": {
        "en": "No findings: no number of this run lies clearly past a finding's threshold (docs/findings.md).",
        "ja": "所見なし：今回の対戦では、どの数値も所見のしきい値をはっきりとは越えていません"
        "（docs/findings.md）。",
    },
    "evidence": {"en": "   Evidence: {evidence}.", "ja": "   根拠：{evidence}。"},
    "evidence_joined": {"en": "; ", "ja": "、"},
    "variant": {
        "en": "{label} ({games} games, {deals} deals)",
        "ja": "{label}（{games}ゲーム、配札{deals}通り）",
    },
    "seats": {"en": "Seats", "ja": "席"},
    "the_game": {"en": "The game", "ja": "ゲーム全体"},
    "choices": {"en": "Choices by kind of decision", "ja": "判断の種類ごとの選択"},
    "skill_and_luck": {"en": "Skill and luck", "ja": "腕前と運"},
    "variants": {"en": "Variants against the baseline", "ja": "バリアントと基準の比較"},
    "minus": {"en": "{label} minus {baseline}", "ja": "{label} − {baseline}"},
    "meanings": {"en": "What the numbers mean", "ja": "用語と数値の意味"},
    "largest_swings": {"en": "The largest swings:", "ja": "勝つ見込みが最も大きく動いた手："},
    "default": {"en": "default", "ja": "標準設定"},
    "no_definition": {
        "en": "(no definition: please report this)",
        "ja": "（説明がありません：報告してください）",
    },
    "all_pairs": {"en": "all pairs", "ja": "全ペア"},
    # the seat-balance test, below the table of seats
    "seat_test": {
        "en": "Seat-balance test (1/{n} of the wins each; shares of wins marked ▲/▼ at {confidence:.1%} "
        "each): ",
        "ja": "席バランス検定（どの席も勝利の 1/{n} ずつが公平。勝利の割合の▲/▼は各席 {confidence:.1%} の"
        "区間で判定）：",
    },
    "seat_test_impossible": {"en": "not possible: {why}.", "ja": "検定できません：{why}。"},
    "seats_differ": {
        "en": "the seats' shares differ from the fair share",
        "ja": "席ごとの勝利の割合は公平な割合と異なります",
    },
    "seats_unseen": {
        "en": "these games cannot tell the seats apart",
        "ja": "この対局数では席の差を見分けられません",
    },
    "seats_missed": {
        "en": "; a seat {missed:.1%} above or below the fair share could have been missed (80% power)",
        "ja": "。公平な割合より {missed:.1%} 上または下の席があっても見逃したかもしれません（検出力80%）",
    },
    "seat_test_result": {
        "en": "χ² = {statistic:.2f} on {df} df (Pearson's {chi2:.2f} over the design effect "
        "{design_effect:.2f}), p = {p} (F test on {df} and {df2} df, for the design effect is estimated "
        "from {deals} deals), over {games} games with a winner: {meaning}.",
        "ja": "χ² = {statistic:.2f}、自由度 {df}（ピアソンの {chi2:.2f} をデザイン効果 {design_effect:.2f} で"
        "割った値）、p = {p}（デザイン効果を配札 {deals} 通りから推定するため、自由度 {df} と {df2} のF検定）。"
        "勝者のいた {games} ゲームで見ると、{meaning}。",
    },
    # the skill ladder and luck
    "skill": {
        "en": "Agents by win share, strongest first; each step is the paired difference from the agent "
        "below in the same games (deal as the unit)",
        "ja": "ボットを勝率の高い順に並べています。各段の差は、同じゲームでのすぐ下のボットとの差です"
        "（配札を単位とする対応のある差）",
    },
    "skill_several": {
        "en": ", Bonferroni intervals at {confidence:.2%} and Holm p-values over the {steps} steps",
        "ja": "。区間は {steps} 段についてボンフェローニ補正した {confidence:.2%}、p値は {steps} 段についての"
        "ホルム補正",
    },
    "skill_one": {"en": ", 95% interval", "ja": "。区間は95%"},
    "skill_end": {"en": "; * = p < 0.05.", "ja": "。* = p < 0.05。"},
    "skill_expected": {
        "en": "The built-in agents rank in the expected order ({order})",
        "ja": "組み込みのボットは想定どおりの順（{order}）に並びました",
    },
    "skill_sure": {"en": ", every step significantly.", "ja": "。どの段の差も有意です。"},
    "skill_unsure": {
        "en": ", though not every step is significant yet.",
        "ja": "。ただし、まだすべての段の差が有意なわけではありません。",
    },
    "skill_unexpected": {
        "en": "**Not the expected order** {order}: a built-in agent ranks above a stronger kind.",
        "ja": "**想定どおりの順（{order}）ではありません**：組み込みのボットが、より強い種類のボットより"
        "上にいます。",
    },
    "skill_seats": {
        "en": "**The agents did not hold every seat equally often** (no rotation, or a partial last "
        "deal): seat advantages are mixed into the ladder.",
        "ja": "**ボットがすべての席に同じ回数ずつ座っていません**（ローテーションなし、または最後の配札が"
        "途中まで）：席の有利不利がこの順位に混ざっています。",
    },
    "sentences_joined": {"en": " ", "ja": ""},
    "luck": {
        "en": "Luck: how often the weaker agent finishes ahead of a stronger one it meets in a game "
        "(0 = never, skill decides; 0.5 = a coin toss).",
        "ja": "運：同じゲームで出会った強い方のボットより、弱い方のボットが上の成績で終わる頻度"
        "（0 = 一度もない、腕前で決まる。0.5 = コイントスと同じ）。",
    },
    # the variants against the baseline
    "paired": {
        "en": "Paired on the same deals and seats (variant − baseline), deal as the unit; p from a t test "
        "over deals.",
        "ja": "同じ配札・同じ席どうしで対応をとった差（バリアント − 基準）で、配札を単位とします。p値は"
        "配札についてのt検定です。",
    },
    "paired_one": {
        "en": " Intervals are 95%; * = p < 0.05 (the interval excludes 0).",
        "ja": "区間は95%、* = p < 0.05（区間が0を含まない）。",
    },
    "paired_several": {
        "en": " {m} variants are compared with the baseline, so each quantity's {m} comparisons are "
        "corrected together: intervals are Bonferroni's, {level:.2%} each, so that all {m} hold at once "
        "with 95%; p-values are Holm-adjusted over the {m}; * = adjusted p < 0.05. Holm is the sharper "
        "of the two, so a * may stand beside an interval that just touches 0.",
        "ja": "{m} 個のバリアントをそれぞれ基準と比べるので、項目ごとの {m} 個の比較をまとめて補正して"
        "います：区間はボンフェローニ補正で各 {level:.2%}（{m} 個が同時に95%で成り立つ）、p値は {m} 個に"
        "ついてのホルム補正、* = 補正後のp < 0.05。ホルム補正の方が鋭いので、区間がちょうど0に触れて"
        "いても * が付くことがあります。",
    },
    # the plots
    "fair_share": {"en": "fair share", "ja": "公平な割合"},
    "seat_axis": {"en": "seat", "ja": "席"},
    "win_share_axis": {"en": "win share (95% CI)", "ja": "勝率（95%区間）"},
    "seats_title": {
        "en": "{game} ({n}p), {label}: win share by seat",
        "ja": "{game}（{n}人）、{label}：席ごとの勝率",
    },
    "final_score": {"en": "final score", "ja": "最終得点"},
    "score_share": {"en": "share of the agent's seats", "ja": "そのボットの席に占める割合"},
    "scores_title": {
        "en": "{game} ({n}p), {label}: score distribution per agent",
        "ja": "{game}（{n}人）、{label}：ボットごとの得点の分布",
    },
    "differences_title": {
        "en": "variant − {baseline} on the same deals ({level:.1%} intervals",
        "ja": "同じ配札での差：バリアント − {baseline}（{level:.1%} 区間",
    },
    "differences_several": {
        "en": ", Bonferroni over the variants)",
        "ja": "、バリアントについてボンフェローニ補正）",
    },
    "differences_one": {"en": ")", "ja": "）"},
}


def t(key: str, lang: str, /, **fields: Any) -> str:
    """The phrase `key` in `lang`, its fields filled in."""
    return PHRASES[key][lang].format(**fields)


#: The names of the report's tables (their English words are the keys of every table below).
AGENT_HEADER = [
    "agent",
    "seats played",
    "win share (95% CI)",
    "fair",
    "mean score",
    "rating μ ± σ",
    "ms/decision",
]
SEAT_HEADER = ["seat", "share of wins (simultaneous 95% CI)", "mean score"]
GAME_HEADER = ["", "mean (95% CI)"]
COMPARISON_HEADER = ["quantity", "difference [CI]", "p (Holm)"]
SKILL_HEADER = ["rank", "agent", "win share (95% CI)", "ahead of the next by [CI]", "p (Holm)"]
LUCK_HEADER = ["weaker agent", "stronger agent", "upset rate (95% CI)", "decided meetings"]
CHOICE_HEADER = ["decision (options offered)", "decisions", "games", "chosen (share, 95% CI)"]
LENGTH = "game length (actions)"
DEAD = "dead decisions"
END = "ended by"
FIRST_PLAYER = "first-player advantage (seat 0 − fair share)"
BALANCE = "balance (largest seat gap from the fair share)"


#: What every name a report shows means, in a designer's words (a game's numbers come from
#: `bodoge.arena.metrics.definitions`). Names with a seat or an agent in them stand for all such.
GLOSSARY: dict[str, str] = {
    "agent": "an agent by its spec as given to --agents; the same spec at several seats is one agent",
    "seats played": "the seats the agent held, summed over all games",
    "win share (95% CI)": "the mean of the agent's returns over every seat it held: 1 for a win, 1/k "
    "for a win shared by k seats, 0 for a loss; with seat rotation every agent holds every seat "
    "equally often, so shares compare agents at equal seats. ▲/▼: the 95% interval lies above/below "
    "the fair share",
    "fair": "the fair share 1/n for n players: every agent's win share if none were stronger",
    "mean score": "the mean final score (the running score the rulebook counts) at the seats held",
    "rating μ ± σ": "openskill's Plackett–Luce rating over the games in order, each game ranked by "
    "returns, then score: μ the estimated skill, σ its uncertainty (a new agent starts at 25 ± 8.3)",
    "ms/decision": "the agent's thinking time per decision, in milliseconds",
    "seat": "the seat in turn order; P0 starts the game",
    "share of wins (simultaneous 95% CI)": "the seat's share of the wins, over the games with a winner "
    "(a win shared by k seats counts 1/k to each); its interval is at the Bonferroni level 1 − 0.05/n "
    "for n seats, so all seats' intervals hold together with 95%; ▲/▼: the seat-balance test found "
    "the seats unequal (p < 0.05) and this seat's interval lies above/below the fair 1/n",
    "seat-balance test": "Pearson's chi-square of the seats' wins against 1/n each (n − 1 degrees of "
    "freedom), divided by the design effect (Rao–Scott): the mean over seats of the variance of the "
    "seat's share with the deal as the unit over its variance were all games independent. Games of "
    "one deal share their cards (deterministic bots even replay them), so they count less than new "
    "deals. Since the design effect is estimated from the deals played, the p-value is that of χ²/(n − 1) "
    "under F with n − 1 and (n − 1)(deals − 1) degrees of freedom (Rao–Scott's F, as R's survey "
    "package): close to the chi-square's with many deals, more cautious with few. p < 0.05: the seats "
    "are not equally placed to win",
    "mean (95% CI)": "the mean over deals (each deal's games averaged first), with its 95% interval",
    LENGTH: "actions (decisions) from the deal to the end of the game",
    FIRST_PLAYER: "seat 0's win share minus the fair share 1/n; seat 0 starts the game",
    BALANCE: "the largest gap between any seat's win share and the fair share 1/n, with that seat's "
    "interval around it: 0 when every seat wins as often (bodoge tune's `balance` goal)",
    DEAD: "the share of a game's decisions that are forced (one legal action) or settled (the single "
    "action of an option the agents choose at least 90% of the time at that kind of decision, "
    "arena/choices.py); the dead_decisions finding's number",
    "ended by REASON": "the share of games that ended for that reason, in the game's words "
    "(Hangover: hands_empty, no_active_player, one_active_player; HO-4.8)",
    "decision (options offered)": "a kind of decision: the options (kinds of action, in the game's "
    "action words) its legal actions offered, when they were of two or more options",
    "decisions": "how many decisions of that kind the agents took, over all games",
    "games": "in how many games that kind of decision came up",
    "chosen (share, 95% CI)": "each option's share of those decisions, with its interval (deal as the "
    "unit, Wilson's on the effective number of decisions); ▲ dominant: the whole interval above 0.9",
    "quantity": "what is compared between a variant and the baseline",
    "difference [CI]": "the quantity under the variant minus under the baseline on the same deals "
    "and seats, with the interval stated above the table",
    "p (Holm)": "the p-value of a t test that the difference (or the step) is 0, over deals, "
    "Holm-adjusted when several are tested together; * = below 0.05",
    "length": "game length in actions (as above)",
    "first_player_advantage": "seat 0's win share minus the fair share 1/n (as above)",
    "win share of seat N": "the win share of the agent at that seat (returns, as above)",
    "score of seat N": "the final score at that seat",
    "win share of AGENT": "that agent's win share (as above), its seats averaged in each game",
    "rank": "the agent's place on the skill ladder, 1 = highest win share",
    "ahead of the next by [CI]": "the agent's win share minus the next agent's, paired in the same "
    "games, deal as the unit, with the interval stated above the table",
    "weaker agent": "of two agents, the one with the lower win share",
    "stronger agent": "of two agents, the one with the higher win share",
    "upset rate (95% CI)": "luck: among the meetings of a seat of the weaker agent and a seat of the "
    "stronger one in a game where their returns differ, the share where the weaker got more "
    "(0 = the stronger always finishes ahead; 0.5 = a coin toss); deal as the unit",
    "decided meetings": "the meetings (weaker seat, stronger seat, same game) whose returns differ",
}


#: Each name a table shows, by its English name (report.py's headers and rows), in Japanese.
NAMES_JA: dict[str, str] = {
    "": "",
    "agent": "ボット",
    "seats played": "座った席数",
    "win share (95% CI)": "勝率（95%区間）",
    "fair": "公平な割合",
    "mean score": "平均得点",
    "rating μ ± σ": "レーティング μ ± σ",
    "ms/decision": "ミリ秒/判断",
    "seat": "席",
    "share of wins (simultaneous 95% CI)": "勝利の割合（同時95%区間）",
    "seat-balance test": "席バランス検定",
    "mean (95% CI)": "平均（95%区間）",
    "game length (actions)": "ゲームの長さ（手数）",
    "first-player advantage (seat 0 − fair share)": "スタートプレイヤーの有利（P0 − 公平な割合）",
    "balance (largest seat gap from the fair share)": "席のバランス（公平な割合からの最大のずれ）",
    "dead decisions": "死んだ判断",
    "ended by REASON": "終了理由：（理由）",
    "decision (options offered)": "判断（示された選択肢）",
    "decisions": "判断数",
    "games": "ゲーム数",
    "chosen (share, 95% CI)": "選ばれた割合（95%区間）",
    "quantity": "項目",
    "difference [CI]": "差 [区間]",
    "p (Holm)": "p値（ホルム補正）",
    "length": "ゲームの長さ",
    "first_player_advantage": "スタートプレイヤーの有利",
    "win share of seat N": "P○の勝率",
    "score of seat N": "P○の得点",
    "win share of AGENT": "（ボット）の勝率",
    "rank": "順位",
    "ahead of the next by [CI]": "次の順位との差 [区間]",
    "weaker agent": "弱い方のボット",
    "stronger agent": "強い方のボット",
    "upset rate (95% CI)": "番狂わせ率（95%区間）",
    "decided meetings": "差がついた出会い",
}

#: What each name means, in Japanese, by its English name (report.GLOSSARY has the English).
GLOSSARY_JA: dict[str, str] = {
    "agent": "`--agents` に与えたボットの指定。同じ指定が複数の席に座っていても1つのボットとして数えます",
    "seats played": "そのボットが座った席の数（全ゲームの合計）",
    "win share (95% CI)": "そのボットが座ったすべての席での成績の平均：勝ちは1、k席で勝ちを分け合えば 1/k、"
    "負けは0。席のローテーションがあれば、どのボットもどの席にも同じ回数ずつ座るので、同じ条件で比べ"
    "られます。▲/▼：95%区間が公平な割合より上/下",
    "fair": "n人のゲームでの公平な割合 1/n：どのボットも同じ強さなら、これが勝率になります",
    "mean score": "座った席での最終得点（ルールブックが数える得点）の平均",
    "rating μ ± σ": "openskill の Plackett–Luce レーティング。ゲームを順に、成績、次に得点で順位づけして"
    "更新します：μ は推定した強さ、σ はその不確かさ（新しいボットは 25 ± 8.3 から始まります）",
    "ms/decision": "1回の判断にかかった考える時間（ミリ秒）",
    "seat": "手番順の席。P0 がスタートプレイヤーです",
    "share of wins (simultaneous 95% CI)": "勝者のいたゲームのうち、その席が勝った割合（k席で分け合った"
    "勝ちは各席に 1/k ずつ）。区間は n 席についてボンフェローニ補正した水準 1 − 0.05/n なので、全席の区間"
    "が同時に95%で成り立ちます。▲/▼：席バランス検定で席に差が見つかり（p < 0.05）、この席の区間が公平な"
    " 1/n より上/下",
    "seat-balance test": "各席の勝ち数を、どの席も 1/n ずつという想定と比べるピアソンのカイ二乗（自由度 "
    "n − 1）を、デザイン効果で割ったもの（Rao–Scott の補正）。デザイン効果は、配札を単位にしたときの席の"
    "勝利の割合の分散が、全ゲームを独立とみなしたときの何倍かを、席について平均したものです。同じ配札の"
    "ゲームは同じカードを使う（決まった手を打つボットは同じゲームを繰り返すこともある）ので、新しい配札"
    "ほどには数えません。デザイン効果を実際の配札から推定するため、p値は χ²/(n − 1) を自由度 n − 1 と "
    "(n − 1)(配札数 − 1) のF分布で見たものです（Rao–Scott のF。R の survey パッケージと同じ）：配札が多け"
    "ればカイ二乗検定とほぼ同じ、少なければより慎重になります。p < 0.05：席によって勝ちやすさが違います",
    "mean (95% CI)": "配札ごとの平均（まず各配札のゲームを平均）の平均と、その95%区間",
    "game length (actions)": "配ってからゲームが終わるまでの手数（判断の数）",
    "first-player advantage (seat 0 − fair share)": "P0 の勝率から公平な割合 1/n を引いた値。P0 が"
    "スタートプレイヤーです",
    "balance (largest seat gap from the fair share)": "どれかの席の勝率と公平な割合 1/n との差の最大値と、"
    "その席の区間。どの席も同じだけ勝てば0（bodoge tune の `balance` ゴール）",
    "dead decisions": "ゲームの判断のうち、強制（合法手が1つだけ）か、決まりきった判断（その種類の判断で"
    "ボットが90%以上選ぶ選択肢の、ただ1つの手。arena/choices.py）の割合。所見 dead_decisions の数値です",
    "decision (options offered)": "判断の種類：その判断の合法手が示した選択肢（行動の種類。ゲームの行動の"
    "言葉で）。選択肢が2つ以上あったものだけ",
    "decisions": "その種類の判断をボットが行った回数（全ゲームの合計）",
    "games": "その種類の判断が出てきたゲームの数",
    "chosen (share, 95% CI)": "その判断で各選択肢が選ばれた割合と区間（配札を単位とし、実効的な判断数で"
    "のウィルソン区間）。▲ 支配的：区間全体が0.9より上",
    "quantity": "バリアントと基準で比べる項目",
    "difference [CI]": "同じ配札・同じ席で、バリアントでの値から基準での値を引いた差と、表の上に書いた区間",
    "p (Holm)": "差（または段の差）が0だというt検定のp値（配札について）。いくつかをまとめて検定するときは"
    "ホルム補正。* = 0.05未満",
    "length": "手数で数えたゲームの長さ（上と同じ）",
    "first_player_advantage": "P0 の勝率から公平な割合 1/n を引いた値（上と同じ）",
    "win share of seat N": "その席に座ったボットの勝率（成績の平均、上と同じ）",
    "score of seat N": "その席の最終得点",
    "win share of AGENT": "そのボットの勝率（上と同じ。各ゲームでそのボットの席を平均）",
    "rank": "腕前の順位。1 = 勝率が最も高い",
    "ahead of the next by [CI]": "そのボットの勝率から次の順位のボットの勝率を引いた差（同じゲームで対応を"
    "とり、配札を単位とする）と、表の上に書いた区間",
    "weaker agent": "2つのボットのうち、勝率の低い方",
    "stronger agent": "2つのボットのうち、勝率の高い方",
    "upset rate (95% CI)": "運：同じゲームで弱い方のボットの席と強い方のボットの席が出会い、成績に差が"
    "ついたとき、弱い方が上だった割合（0 = いつも強い方が上、0.5 = コイントスと同じ）。配札を単位とします",
    "decided meetings": "成績に差がついた出会い（弱い方の席、強い方の席、同じゲーム）の数",
}

#: The end of the meaning of "ended by REASON": the reasons shown follow, in the game's words.
ENDED_BY_JA = "その理由で終わったゲームの割合。理由はゲームの言葉で："

#: A game's numbers (`bodoge.arena.metrics`, `quality` and the games' `metrics` parts): (name, meaning).
METRICS_JA: dict[str, tuple[str, str]] = {
    "tie": ("同点勝利", "勝ちを複数の人で分け合った（同点）なら1、そうでなければ0"),
    "no_winner": ("勝者なし", "誰も勝たなければ1、そうでなければ0"),
    "rounds": ("ラウンド数", "行われたラウンドの数"),
    "normal_end": (
        "通常の終わり方",
        "ルールの通常の終わり方で終われば1（ハングオーバー：全員がカードを出し切る、HO-4.8）、例外的な"
        "経路で終われば0（ハングオーバー：脱落していないプレイヤーがいなくなる）",
    ),
    "lead_changes": (
        "首位の入れ替わり",
        "最初に得点が入ったあと、得点の首位（進行中の得点が最も高い席）が入れ替わった回数（Ludii の"
        " lead changes。Browne 2008）",
    ),
    "comeback": (
        "逆転勝ち",
        "ゲームの中盤（手数の半分）で得点の首位にいなかった人が勝てば1、そうでなければ0：後ろから追い上げて"
        "勝ったゲームの割合（ドラマ）",
    ),
    "decided_at": (
        "決着の時点",
        "得点の首位がそれ以上変わらなくなった時点（ゲームの手数に対する割合）：低いほど早く決着がついた"
        "ということ（決定性。Browne 2008 による）",
    ),
    "leaders_won": (
        "首位がそのまま勝利",
        "最終的な得点の首位がちょうど勝者と一致すれば1、そうでなければ0（タイブレークや、首位の人を勝てなく"
        "するルールがあると差が出ます）",
    ),
    "forced": ("強制手", "合法手が1つしかなかった判断の割合（死んだ判断：強制された手は退屈です）"),
    "decisions_per_person": ("1人あたりの判断数", "1つの席が行った判断の数の平均"),
    "minutes": (
        "推定プレイ時間（分）",
        f"実際の卓での推定時間：本当の選択1回に {quality.SECONDS_PER_CHOICE:g} 秒、強制された手1回に "
        f"{quality.SECONDS_PER_FORCED:g} 秒として、全席の判断について合計",
    ),
    # Hangover (games/hangover/metrics.py)
    "hung_over": (
        "ハングオーバーした人の割合",
        "ハングオーバーしたプレイヤーの割合（HO-5.4：自分のトリックが多すぎた人。勝利できません）",
    ),
    "non_drinkers": ("下戸宣言した人の割合", "下戸宣言したプレイヤーの割合（HO-4.2）"),
    "tricks": ("トリック数", "ゲームが終わるまでに行われたトリックの数（HO-4.8）"),
    "snacks_flipped": (
        "表にした肴カードの割合",
        "配られた肴カードのうち、表にされたものの割合（HO-4.5）：肴カードがどれだけ使われているか",
    ),
}

#: The games' names where a game's texts lack `name.game`.
GAMES_JA = {
    "hangover": "ハングオーバー",
    "tokkuri": "トックリ",
    "tottarot": "トッタロット",
    "troika": "トロイカ",
}

#: Why the seat-balance test could not be made (arena/balance.py), in Japanese.
WHY_JA = {
    "one seat: nothing to compare": "席が1つなので比べるものがありません",
    "it needs games with a winner on at least 2 deals": "少なくとも2通りの配札で勝者のいるゲームが必要です",
}

#: The summary's warnings (arena/summary.py), matched by their English: (pattern, Japanese).
WARNINGS_JA: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(
            r"(?P<label>.+): (?P<repeats>\d+) of its (?P<games>\d+) games repeat another game action for "
            r"action \(only (?P<distinct>\d+) distinct\): deterministic bots replay a deal at every seat "
            r"rotation, and the intervals count the repeats as if they were independent games"
        ),
        "{label}：{games} ゲームのうち {repeats} ゲームが、ほかのゲームと一手一手まったく同じです（異なる"
        "ゲームは {distinct} だけ）。決まった手を打つボットは席のローテーションのたびに同じ配札を同じように"
        "打ち直しますが、区間はその繰り返しを独立なゲームとして数えています",
    ),
    (
        re.compile(
            r"(?P<label>.+) played exactly the same games as (?P<baseline>.+) on every deal: with these "
            r"bots the options changed nothing, so its differences are 0 by construction"
        ),
        "{label} は、どの配札でも {baseline} とまったく同じゲームになりました：このボットたちでは"
        "オプションを変えても何も変わらないので、差は当然0です",
    ),
    (
        re.compile(
            r"seat rotation is off and the agents differ: each seat's share \(and the seat-balance test\) "
            r"mixes the seat's advantage with its agent's strength, and the skill ladder compares agents "
            r"at different seats"
        ),
        "席のローテーションがなく、ボットがそれぞれ違います：席ごとの勝利の割合（と席バランス検定）には、"
        "席の有利不利とそこに座ったボットの強さが混ざり、腕前の順位は違う席のボットどうしを比べています",
    ),
    (  # arena.runner.seed_overlaps
        re.compile(
            r"this run's deals (?P<mine>\S+) share deals (?P<shared>\S+) with the run in (?P<folder>.+) "
            r"\(--seed (?P<seed>\d+), deals (?P<theirs>\S+)\): the two are neither independent samples nor a "
            r"paired comparison; --seed (?P=seed) pairs them deal by deal, --seed (?P<fresh>\d+) or above "
            r"makes them independent"
        ),
        "この実行の配札 {mine} のうち {shared} は、{folder} の実行（--seed {seed}、配札 {theirs}）と同じ配札"
        "です。二つは独立な標本でも、配札ごとの対の比較でもありません。--seed {seed} なら配札ごとに対に"
        "なり、--seed {fresh} 以上なら独立になります",
    ),
]


def warning_text(warning: str, lang: str) -> str:
    """A summary's warning in `lang` (one this table does not know stays as it is)."""
    if lang == "en":
        return warning
    for pattern, words in WARNINGS_JA:
        m = pattern.fullmatch(warning)
        if m:
            return words.format(**m.groupdict())
    return warning


#: The findings' kinds (arena/findings.py, docs/findings.md) in Japanese.
KINDS_JA = {
    "degenerate_end": "例外的な終わり方",
    "dominant_choice": "支配的な選択",
    "dead_decisions": "死んだ判断",
    "seat_imbalance": "席の有利不利",
    "runaway_leader": "首位の独走",
    "no_winner": "勝者なし",
    "ties": "同点が多い",
    "no_skill": "腕前が報われにくい",
}

#: The names of a finding's evidence in Japanese (those with a seat, an agent or a reason in them
#: are matched in `evidence_name`).
EVIDENCE_JA = {
    "share": "割合",
    "decisions": "判断数",
    "games_with_it": "その判断のあったゲーム数",
    "exceptional_end": "例外的な終わり方",
    "dead_decisions": "死んだ判断",
    "fair": "公平な割合",
    "edge": "公平な割合との差",
    "cost_in_win_share": "避けたときの勝率の変化",
    "win_share_when_avoiding": "避けたときの勝率",
}


def evidence_name(name: str, lang: str) -> str:
    """The name of a finding's evidence as the report shows it."""
    if lang == "en":
        return name
    if name in EVIDENCE_JA:
        return EVIDENCE_JA[name]
    if name in METRICS_JA:
        return METRICS_JA[name][0]
    if m := re.fullmatch(r"end (.+)", name):
        return f"終了理由 {m[1]}"
    if m := re.fullmatch(r"share of wins of (P\d+)", name):
        return f"{m[1]} の勝利の割合"
    if m := re.fullmatch(r"win share of (.+)", name):
        return f"{m[1]} の勝率"
    return name


#: The review's section (bodoge.arena.decided) in Japanese.
REVIEW_TITLE_JA = "勝負の分かれ目（{games} ゲーム、{decisions} 回の判断を見直し）"
REVIEW_EXPLAINED_JA = (
    "各席のすべての判断を、その席から見えていた情報で評価しました（docs/review.md）。スイング：この判断"
    "から次の判断（または結果）までに、その席の勝つ見込みがどれだけ動いたか。損失：最善の選択肢の価値から"
    "選んだ手の価値を引いたもの（ゲームを単位とした95%区間）。惜しい手：緩手・悪手・大悪手の割合。"
)
REVIEW_KIND_HEADER_JA = ["判断の種類", "判断数", "平均スイング", "平均損失", "惜しい手"]
REVIEW_SWING_HEADER_JA = ["ゲーム", "手", "席", "種類", "選んだ手", "評価", "勝つ見込み 前 → 後"]
#: The review's classes of decisions (bodoge.analysis.review.CLASSES) in Japanese.
CLASSES_JA = {
    "best": "最善手",
    "good": "好手",
    "inaccuracy": "緩手",
    "mistake": "悪手",
    "blunder": "大悪手",
    "unclear": "不明",
    "even": "互角",
    "forced": "強制",
}


def shown(name: str, lang: str) -> str:
    """A name as a table shows it in `lang`: a header, a quantity, a game's number (report.py keeps
    the English name as the key)."""
    if lang == "en":
        return name
    if name in NAMES_JA:
        return NAMES_JA[name]
    if name in METRICS_JA:
        return METRICS_JA[name][0]
    if m := re.fullmatch(r"win share of seat (\d+)", name):
        return f"P{m[1]} の勝率"
    if m := re.fullmatch(r"score of seat (\d+)", name):
        return f"P{m[1]} の得点"
    if m := re.fullmatch(r"ended by (.+)", name):
        return f"終了理由：{m[1]}"
    if m := re.fullmatch(r"win share of (.+)", name):
        return f"{m[1]} の勝率"
    return name
