/**
 * The page's one stylesheet, inline (the page loads nothing): a readable column on a laptop screen,
 * long lines wrapped rather than scrolled, and a print layout in black on white with every section
 * whole. No inline `style` attribute anywhere: the policy allows this sheet by its hash alone.
 */
export const PAGE_STYLE = `
:root { color-scheme: light; --ink: #1d232b; --muted: #5b6673; --line: #d6dbe1; --good: #0f6b2f; --bad: #a4161a; --warn: #8a5a00; --code: #f5f7f9; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 78rem; padding: 1.5rem 2rem 4rem; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1rem 0 .25rem; overflow-wrap: anywhere; }
.sub { color: var(--muted); margin: 0; overflow-wrap: anywhere; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: .75rem; margin-top: 1rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; }
.card .label { color: var(--muted); font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; }
.card .value { font-size: 1.2rem; font-weight: 600; overflow-wrap: anywhere; }
.card p { margin: .25rem 0 0; overflow-wrap: anywhere; }
.good { color: var(--good); } .bad { color: var(--bad); } .warn { color: var(--warn); }
.findings { border-left: 4px solid var(--bad); padding: .25rem .75rem; background: #fdf3f3; }
.findings li { overflow-wrap: anywhere; }
ol.timeline { list-style: none; padding: 0; margin: 0; }
ol.timeline li { display: grid; grid-template-columns: 4.5rem 8rem 1fr; gap: .5rem; padding: .35rem .25rem; border-bottom: 1px solid var(--line); }
ol.timeline li.refusal { background: #fdf3f3; border-left: 4px solid var(--bad); }
ol.timeline .where { color: var(--muted); font-size: .85rem; }
ol.timeline .what { font-weight: 600; }
ol.timeline .refused { color: #fff; background: var(--bad); border-radius: 3px; padding: 0 .35rem; font-size: .8rem; }
.words { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
pre, code, .mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: .85rem; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .75rem; margin: .25rem 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 40rem; overflow: auto; }
pre.diff .add { color: var(--good); } pre.diff .del { color: var(--bad); } pre.diff .hunk { color: #1f4e9c; } pre.diff .head { color: var(--muted); font-weight: 600; }
.control { border: 1px solid var(--warn); color: var(--warn); border-radius: 2px; font-size: .75em; padding: 0 .15em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .3rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; font-size: .85rem; }
.mark { font-weight: 600; white-space: nowrap; }
.mark.matches { color: var(--good); } .mark.differs, .mark.missing { color: var(--bad); } .mark.cut, .mark.unchecked, .mark.pending { color: var(--warn); }
.digest { font-size: .75rem; color: var(--muted); }
#kept-files td:first-child { white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: 11rem 1fr; gap: .2rem .75rem; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
details summary { cursor: pointer; color: #1f4e9c; }
.note { color: var(--muted); font-size: .9rem; }
@media (max-width: 48rem) { body { padding: 1rem; } ol.timeline li { grid-template-columns: 1fr; } dl.facts { grid-template-columns: 1fr; } }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; color: #000; }
  h2 { break-after: avoid; }
  .card, ol.timeline li, tr { break-inside: avoid; }
  pre { max-height: none; overflow: visible; border-color: #999; }
  details summary { color: #000; }
  .screen-only { display: none; }
}
`;
