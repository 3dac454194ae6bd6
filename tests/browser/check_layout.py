#!/usr/bin/env python3
"""The procurement review's layout in headless Chromium (ctest: report_layout).

    check_layout.py --bin PERFLEDGER --source SRC --work DIR

Renders reports/procurement-review.json over samples/procurement-sweep and
samples/procurement-api in en and zh-CN, and for each opens report.html at
1280x800 and at 390x844. A page framing it gets a few lines of script that
measure the layout after load and write the numbers into the DOM, which
--dump-dom prints (the report itself carries no test code; the page frames
the report at exactly the width, as a headless window cannot be narrower
than 500 px). Asserts:
  - the verdict table (#verdict-table) is the first table of the page and
    lies within the first screen: wholly at 1280 px, its top and its first
    offer row at 390 px (the table scrolls sideways inside its own box there);
  - at 1280 px the page body does not scroll sideways
    (documentElement.scrollWidth <= clientWidth);
  - at 390 px no chart (figure) scrolls sideways in its box: it fits the
    width whole.
  - at 390 px a card's offer cell is neither sticky nor shadowed (the
    sticky column's box-shadow drew a grey bar beside the offer's name);
  - at both widths the first offer's flags cell starts where its cost cell
    ends (at most 16 px right of it, on the same line): a cost never
    shows apart from its qualifier.
Screenshots of every page and width are left in DIR/layout/ (verdict-LANG-WIDTH.png)
for a person to look at. Exit 77 only when chromium is not installed (a
failure under CI=true).
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

# A page holding the report in an iframe of exactly W x H CSS pixels (a
# headless window has a minimum width of its own; an iframe does not), whose
# script measures the report's layout after load and writes the numbers into
# the DOM. --allow-file-access-from-files lets it read the framed file page.
WRAPPER = """<!DOCTYPE html><html><head><meta charset="utf-8"></head>
<body style="margin:0"><iframe id="f" src="%(src)s" width="%(w)d" height="%(h)d" style="border:0;display:block"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var w = this.contentWindow, doc = this.contentDocument, d = doc.documentElement;
  var t = doc.getElementById('verdict-table'), first = doc.querySelector('table');
  var r = t ? t.getBoundingClientRect() : null;
  var row = t ? t.tBodies[0].rows[0].getBoundingClientRect() : null;
  var figs = doc.querySelectorAll('figure'), wide = 0;
  for (var i = 0; i < figs.length; i++)
    if (figs[i].scrollWidth > figs[i].clientWidth + 1) wide++;
  var cell = t ? w.getComputedStyle(t.tBodies[0].rows[0].cells[0]) : null;
  var cost = t ? t.tBodies[0].rows[0].querySelector('td.cost').getBoundingClientRect() : null;
  var flags = t ? t.tBodies[0].rows[0].querySelector('td.flags').getBoundingClientRect() : null;
  var p = document.createElement('pre');
  p.id = 'layout-probe';
  p.textContent = r ? ['first=' + (first === t ? 1 : 0), 'top=' + r.top, 'bottom=' + r.bottom,
    'row_bottom=' + row.bottom, 'inner_h=' + w.innerHeight, 'inner_w=' + w.innerWidth,
      'scroll_w=' + d.scrollWidth, 'client_w=' + d.clientWidth, 'figures=' + figs.length,
      'figures_wider=' + wide,
      'shadow=' + (cell.boxShadow === 'none' ? 0 : 1),
      'sticky=' + (cell.position === 'sticky' ? 1 : 0),
      'flags_gap=' + (flags.left - cost.right), 'flags_dy=' + Math.abs(flags.top - cost.top)].join(' ')
    : 'no verdict table';
  document.body.appendChild(p);
});
</script></body></html>"""


def run(argv, cwd, env):
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(argv), r.stderr))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("chromium not installed: skipped")
        return 1 if os.environ.get("CI") == "true" else 77
    work = os.path.join(args.work, "layout")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, PERFLEDGER_DB=os.path.join(work, "db"), SOURCE_DATE_EPOCH="1790000000")
    run([args.bin, "import", "samples/procurement-sweep", "samples/procurement-api"], args.source, env)
    profile = tempfile.mkdtemp(prefix="pl-layout-")
    common = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--allow-file-access-from-files", "--user-data-dir=" + profile]
    failures = []
    try:
        for lang in ("en", "zh-CN"):
            out = os.path.join(work, lang)
            run([args.bin, "report", "--spec", "reports/procurement-review.json", "--lang", lang,
                 "--out", out], args.source, env)
            report = "file://" + os.path.join(out, "report.html")
            for w, h in ((1280, 800), (390, 844)):
                subprocess.run(common + ["--window-size=%d,%d" % (w, h),
                                         "--screenshot=" + os.path.join(work, "verdict-%s-%d.png" % (lang, w)),
                                         report],
                               capture_output=True, text=True, timeout=60)
                probe = os.path.join(work, "probe-%s-%d.html" % (lang, w))
                open(probe, "w", encoding="utf-8").write(WRAPPER % {"src": report, "w": w, "h": h})
                d = subprocess.run(common + ["--window-size=1400,1000", "--dump-dom", "file://" + probe],
                                   capture_output=True, text=True, timeout=60)
                m = re.search(r'<pre id="layout-probe">([^<]*)</pre>', d.stdout)
                if not m:
                    failures.append("%s %dpx: no layout probe in the DOM" % (lang, w))
                    continue
                v = dict(kv.split("=") for kv in m.group(1).split())
                f = {k: float(x) for k, x in v.items()}
                where = "%s %dpx (%s)" % (lang, w, m.group(1))
                if f["inner_w"] != w or f["inner_h"] != h:
                    failures.append(where + ": the frame is not %dx%d" % (w, h))
                if f["first"] != 1:
                    failures.append(where + ": the verdict table is not the first table")
                if f["top"] < 0 or f["top"] >= f["inner_h"]:
                    failures.append(where + ": the verdict table does not start on the first screen")
                if w == 1280 and f["bottom"] > f["inner_h"]:
                    failures.append(where + ": the verdict table does not end on the first screen")
                if w == 390 and f["row_bottom"] > f["inner_h"]:
                    failures.append(where + ": the first offer is not on the first screen")
                if w == 390 and (f["shadow"] or f["sticky"]):
                    failures.append(where + ": a card's offer cell keeps the sticky column's "
                                    "box-shadow (a grey bar beside the offer's name)")
                # a cost never stands apart from its qualifier: the flags
                # cell is the next cell on the cost's line at every width
                if not (0 <= f["flags_gap"] <= 16 and f["flags_dy"] <= 4):
                    failures.append(where + ": the flags are not right beside the cost")
                if w == 1280 and f["scroll_w"] > f["client_w"]:
                    failures.append(where + ": the page scrolls sideways")
                if f["figures"] < 1:
                    failures.append(where + ": no chart")
                if w == 390 and f["figures_wider"] > 0:
                    failures.append(where + ": %d of %d charts scroll sideways (a phone sees "
                                    "their left part only)" % (f["figures_wider"], f["figures"]))
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        sys.exit("\n".join(failures))
    print("layout: the verdict table is the first table and on the first screen at 1280 and 390 px, "
          "no sideways scroll at 1280 px, charts fit at 390 px (en, zh-CN); screenshots in " + work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
