/** The console's one stylesheet (served as /console.css; the pages' CSP allows no inline style). */
export const CONSOLE_CSS = `
:root { --ink: #1d2330; --muted: #5b6473; --line: #d9dde4; --bg: #f6f7f9; --answer: #2f7d4f; --abstain: #c2572b; --accent: #2d5fb8; --warn: #9a6b00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", sans-serif; color: var(--ink); background: var(--bg); }
header { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.5rem; background: #fff; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header .brand { font-weight: 700; color: var(--ink); text-decoration: none; font-size: 1.1rem; }
header nav { display: flex; gap: 1rem; flex-wrap: wrap; }
header nav a { color: var(--muted); text-decoration: none; padding: .2rem 0; }
header nav a[aria-current="page"] { color: var(--ink); border-bottom: 2px solid var(--accent); }
header .logout { margin-left: auto; color: var(--muted); }
main { max-width: 1200px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.4rem; margin: .5rem 0 1rem; } h2 { font-size: 1.1rem; margin: 1.6rem 0 .6rem; }
a { color: var(--accent); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: .8rem; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .7rem .9rem; }
.card .value { font-size: 1.5rem; font-weight: 600; } .card .label { color: var(--muted); font-size: .85rem; }
.panel { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .8rem 1rem; margin-bottom: 1rem; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: .85rem; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.answer { color: var(--answer); font-weight: 600; } .abstain { color: var(--abstain); font-weight: 600; }
.pass { color: var(--answer); } .fail { color: var(--abstain); font-weight: 600; }
.muted { color: var(--muted); } .mono { font-family: ui-monospace, "Liberation Mono", monospace; font-size: .85rem; }
.reply { white-space: pre-wrap; background: #fff; border-left: 3px solid var(--line); padding: .5rem .8rem; }
.caveat { color: var(--warn); background: #fff8e6; border: 1px solid #ecd59a; padding: .5rem .8rem; border-radius: 4px; margin: .5rem 0; }
.sources { margin: .5rem 0 0; padding-left: 1.6rem; font-size: .9rem; }
.filters { display: flex; gap: .6rem; flex-wrap: wrap; align-items: end; margin-bottom: 1rem; }
label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); gap: .2rem; }
input, select, textarea, button { font: inherit; padding: .35rem .5rem; border: 1px solid var(--line); border-radius: 4px; background: #fff; }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
.logout button, .logout-all button { background: #fff; color: var(--accent); padding: .15rem .5rem; }
textarea { width: 100%; min-height: 4.5rem; }
.error { color: var(--abstain); background: #fff3ee; border: 1px solid #f0c6b4; padding: .5rem .8rem; border-radius: 4px; }
.gap { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .7rem 1rem; margin-bottom: .8rem; }
.gap h3 { margin: 0 0 .3rem; font-size: 1rem; } .gap ul { margin: .3rem 0 0; padding-left: 1.2rem; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; }
.state-open, .fact-due { color: var(--abstain); } .state-asked { color: var(--warn); } .state-answered, .fact-active { color: var(--answer); }
.state-out_of_scope, .fact-retired { color: var(--muted); }
.expert-answer { margin: .4rem 0; } .expert-answer .reply { border-left-color: var(--answer); margin: 0; }
.fact-actions { display: flex; gap: .6rem; flex-wrap: wrap; align-items: start; } .fact-actions form { margin: 0; }
.gap-actions { display: flex; gap: .6rem; flex-wrap: wrap; align-items: end; } .gap-actions form:first-child { flex: 1 1 24rem; }
.gap-actions label { display: flex; flex-direction: column; gap: .2rem; }
.fact-actions details { flex: 1 1 20rem; } .fact-actions summary { cursor: pointer; color: var(--accent); padding: .35rem 0; }
button.danger { background: #fff; color: var(--abstain); border-color: var(--abstain); }
.warn { color: var(--abstain); }
tr.failed td { background: #fff3ee; }
.notice { color: var(--answer); background: #eef8f1; border: 1px solid #b9dcc5; padding: .5rem .8rem; border-radius: 4px; }
label.check { flex-direction: row; align-items: center; gap: .3rem; }
svg text { font: 11px system-ui, "Liberation Sans", sans-serif; fill: var(--muted); }
svg .axis { stroke: var(--line); } svg .grid { stroke: #eef0f3; }
svg .s-answer { fill: var(--answer); stroke: var(--answer); } svg .s-abstain { fill: var(--abstain); stroke: var(--abstain); }
svg .s-0 { stroke: var(--accent); fill: var(--accent); } svg .s-1 { stroke: var(--abstain); fill: var(--abstain); } svg .s-2 { stroke: var(--answer); fill: var(--answer); }
svg .s-3 { stroke: var(--warn); fill: var(--warn); } svg .s-4 { stroke: #7a4fb8; fill: #7a4fb8; } svg .s-5 { stroke: #333; fill: #333; }
svg polyline, svg polyline[class] { fill: none; stroke-width: 2; } svg .bar { fill: var(--accent); } svg .bar.neg { fill: var(--abstain); }
.legend span { margin-right: 1rem; font-size: .85rem; } .legend .key { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px; }
.key.s-answer { background: var(--answer); } .key.s-abstain { background: var(--abstain); } .key.s-0 { background: var(--accent); } .key.s-1 { background: var(--abstain); }
.key.s-2 { background: var(--answer); } .key.s-3 { background: var(--warn); } .key.s-4 { background: #7a4fb8; } .key.s-5 { background: #333; }
.kb-select { display: flex; gap: .3rem; align-items: center; } .kb-select label { flex-direction: row; }
.kb-select select, .kb-select button { padding: .15rem .4rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.tabs { display: flex; gap: .3rem; margin-bottom: .8rem; border-bottom: 1px solid var(--line); }
.tabs a { padding: .35rem .8rem; text-decoration: none; color: var(--muted); border: 1px solid transparent; border-bottom: none; border-radius: 4px 4px 0 0; }
.tabs a[aria-current="page"] { color: var(--ink); background: #fff; border-color: var(--line); font-weight: 600; }
.tabs .count { display: inline-block; margin-left: .3rem; padding: 0 .4rem; border-radius: 999px; background: var(--bg); font-size: .8rem; }
.pager { display: flex; gap: 1rem; margin: .5rem 0 1rem; }
.side-by-side { display: flex; gap: 1.5rem; flex-wrap: wrap; align-items: start; } .side-by-side table { width: auto; }
caption { text-align: left; color: var(--muted); font-size: .85rem; padding-bottom: .3rem; }
.matrix td.diagonal { background: #eef8f1; font-weight: 600; }
.judge-detail h3 { margin: 0 0 .5rem; font-size: 1rem; }
ul.why, ul.criteria { margin: 0; padding-left: 1.1rem; } ul.criteria { color: var(--muted); font-size: .9rem; margin-bottom: .5rem; }
.label-chip { display: inline-block; margin: 0 .4rem .3rem 0; padding: .1rem .5rem; border: 1px solid var(--line); border-radius: 4px; background: var(--bg); }
button.chosen { background: var(--answer); border-color: var(--answer); }
button:focus-visible, a:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.login { max-width: 380px; margin: 4rem auto; background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 1.2rem 1.4rem; }
.login form { display: flex; flex-direction: column; gap: .8rem; }
`;
