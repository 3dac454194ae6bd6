#!/usr/bin/env python3
"""The procurement review's layout in headless Chromium (ctest: report_layout).

    check_layout.py --bin PERFLEDGER --source SRC --work DIR

Renders reports/procurement-review.json over samples/procurement-sweep and
samples/procurement-api in en and zh-CN, and for each opens report.html at
1280x800 and at 390x844. A copy of the page gets a few lines of script that
measure the layout after load and write the numbers into the DOM, which
--dump-dom prints (the report itself carries no test code). Asserts:
  - the verdict table (#verdict-table) is the first table of the page and
    lies within the first screen: wholly at 1280 px, its top and its first
    offer row at 390 px (the table scrolls sideways inside its own box there);
  - at 1280 px the page body does not scroll sideways
    (documentElement.scrollWidth <= clientWidth).
Screenshots of every page and width are left in DIR/layout/ (verdict-LANG-WIDTH.png)
for a person to look at. Exit 77 only when chromium is not installed (a
failure under CI=true).
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

PROBE = """<script>
window.addEventListener('load', function () {
  var t = document.getElementById('verdict-table'), d = document.documentElement;
  var first = document.querySelector('table');
  var r = t ? t.getBoundingClientRect() : null;
  var row = t ? t.tBodies[0].rows[0].getBoundingClientRect() : null;
  var p = document.createElement('pre');
  p.id = 'layout-probe';
  p.textContent = r ? ['first=' + (first === t ? 1 : 0), 'top=' + r.top, 'bottom=' + r.bottom,
    'row_bottom=' + row.bottom, 'inner_h=' + window.innerHeight, 'inner_w=' + window.innerWidth,
    'scroll_w=' + d.scrollWidth, 'client_w=' + d.clientWidth].join(' ') : 'no verdict table';
  document.body.appendChild(p);
});
</script>"""


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
              "--user-data-dir=" + profile]
    failures = []
    try:
        for lang in ("en", "zh-CN"):
            out = os.path.join(work, lang)
            run([args.bin, "report", "--spec", "reports/procurement-review.json", "--lang", lang,
                 "--out", out], args.source, env)
            html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
            probe = os.path.join(work, "probe-%s.html" % lang)
            open(probe, "w", encoding="utf-8").write(html.replace("</body>", PROBE + "\n</body>"))
            for w, h in ((1280, 800), (390, 844)):
                size = "--window-size=%d,%d" % (w, h)
                subprocess.run(common + [size, "--screenshot=" + os.path.join(work, "verdict-%s-%d.png" % (lang, w)),
                                         "file://" + os.path.join(out, "report.html")],
                               capture_output=True, text=True, timeout=60)
                d = subprocess.run(common + [size, "--dump-dom", "file://" + probe],
                                   capture_output=True, text=True, timeout=60)
                m = re.search(r'<pre id="layout-probe">([^<]*)</pre>', d.stdout)
                if not m:
                    failures.append("%s %dpx: no layout probe in the DOM" % (lang, w))
                    continue
                v = dict(kv.split("=") for kv in m.group(1).split())
                f = {k: float(x) for k, x in v.items()}
                where = "%s %dpx (%s)" % (lang, w, m.group(1))
                if f["first"] != 1:
                    failures.append(where + ": the verdict table is not the first table")
                if f["top"] < 0 or f["top"] >= f["inner_h"]:
                    failures.append(where + ": the verdict table does not start on the first screen")
                if w == 1280 and f["bottom"] > f["inner_h"]:
                    failures.append(where + ": the verdict table does not end on the first screen")
                if w == 390 and f["row_bottom"] > f["inner_h"]:
                    failures.append(where + ": the first offer is not on the first screen")
                if w == 1280 and f["scroll_w"] > f["client_w"]:
                    failures.append(where + ": the page scrolls sideways")
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if failures:
        sys.exit("\n".join(failures))
    print("layout: the verdict table is the first table and on the first screen at 1280 and 390 px, "
          "no sideways scroll at 1280 px (en, zh-CN); screenshots in " + work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
