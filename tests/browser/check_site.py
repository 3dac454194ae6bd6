#!/usr/bin/env python3
"""Opens the static site of `perfledger site` in headless Chromium (ctest:
site_chromium). Exit 77 (ctest SKIP_RETURN_CODE) only when chromium is not
installed; scripts/deps.sh installs it so CI runs it.

    check_site.py --bin PERFLEDGER --source SRC --work DIR [--shots DIR]

Seeds a ledger with samples/regression and tests/e2e/inputs/ci_hostile.jsonl
(a hardware name with markup and a workflow command, runs with build
identity whose CI links must appear), accepts the step of
the 30-night series, renders the site, then:
- every page (index.html and each s-*.html) loads from file:// with no
  console error and no request refused by the page's Content-Security-Policy;
- every href of every page resolves: the file exists in the site and its
  #fragment names an element id there (parsed from the HTML);
- the DOM has the index table, inline SVG sparklines and charts, and the
  hostile name only as text (no injected element);
- the filter script works: loaded as index.html#q=0.9.1 the rows that do not
  contain "0.9.1" are hidden, and the count line says so;
- screenshots at 1280 and 390 px wide are not blank (written to --shots
  when given, to look at).
"""
import argparse, html.parser, os, re, shutil, subprocess, sys, tempfile, struct, zlib


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k == "href":
                self.hrefs.append(v)
            if k == "id":
                self.ids.add(v)


def parse(path):
    p = Links()
    p.feed(open(path, encoding="utf-8").read())
    return p


def png_rows(path):
    data = open(path, "rb").read()
    pos, idat, h = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        if typ == b"IHDR":
            h = struct.unpack(">II", data[pos + 8:pos + 16])[1]
        elif typ == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = len(raw) // h
    return len({raw[i * stride + 1:(i + 1) * stride] for i in range(h)})


def run(argv, env, cwd):
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr))
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--shots")
    a = ap.parse_args()
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("chromium not installed: skipped")
        return 77
    work = os.path.join(a.work, "site")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, PERFLEDGER_DB=os.path.join(work, "db"), SOURCE_DATE_EPOCH="1790000000")
    site = os.path.join(work, "site")
    run([a.bin, "import", "samples/regression", "tests/e2e/inputs/ci_hostile.jsonl"], env, a.source)
    hist = run([a.bin, "history", "--metric", "ttft_p50", "--where", "concurrency=8",
                "--where", "model=mistral-7b-instruct-v0.3", "--format", "json"], env, a.source)
    first = re.search(r'"steps": \[\{[^]]*?"first_run": (\d+)', hist).group(1)
    run([a.bin, "accept", "--run", first, "--metric", "ttft_p50", "--by", "site test", "--reason",
         "kernel <b>6.8</b> & \"new\" image"], env, a.source)
    run([a.bin, "site", "--out", site], env, a.source)

    pages = sorted(f for f in os.listdir(site) if f.endswith(".html"))
    ids = {p: parse(os.path.join(site, p)).ids for p in pages}
    bad, ci_links = [], set()
    for p in pages:
        for href in parse(os.path.join(site, p)).hrefs:
            if href.startswith("https://ci.example.org/runs/"):
                ci_links.add(href)  # a run's ci_run_url (build identity): external
                continue
            if re.match(r"^[a-z]+:", href):
                bad.append("%s: absolute link %s" % (p, href))
                continue
            target, _, frag = href.partition("#")
            target = target or p
            if not os.path.isfile(os.path.join(site, target)):
                bad.append("%s: %s: no such file" % (p, href))
            elif frag and target.endswith(".html") and frag not in ids[target]:
                bad.append("%s: %s: no element with that id" % (p, href))
    if bad:
        sys.exit("broken links:\n" + "\n".join(bad))
    # the ten runs with build identity link their CI runs, the URL intact
    if ci_links != {"https://ci.example.org/runs/%d?a=1&b=<2>" % i for i in range(100, 110)}:
        sys.exit("CI run links: %r" % sorted(ci_links))

    profile = tempfile.mkdtemp(prefix="pl-chromium-")
    common = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0"]
    errors, doms = [], {}
    try:
        for p in pages:
            d = subprocess.run(common + ["--dump-dom", "file://" + os.path.join(site, p)],
                               capture_output=True, text=True, timeout=60)
            doms[p] = d.stdout
            errors += ["%s: %s" % (p, l) for l in d.stderr.splitlines()
                       if "CONSOLE" in l or "Uncaught" in l or "Refused to" in l]
        f = subprocess.run(common + ["--dump-dom", "file://" + os.path.join(site, "index.html")
                                     + "#q=0.9.1"], capture_output=True, text=True, timeout=60)
        errors += ["filter: " + l for l in f.stderr.splitlines()
                   if "CONSOLE" in l or "Uncaught" in l or "Refused to" in l]
        shots = a.shots or work
        os.makedirs(shots, exist_ok=True)
        series = next(p for p in pages if p != "index.html" and "0.9.2" in doms[p]
                      and "c=8" in doms[p])
        for w, h in ((1280, 900), (390, 844)):
            for name, page in (("index", "index.html"), ("series", series)):
                out = os.path.join(shots, "site-%s-%d.png" % (name, w))
                r = subprocess.run(common + ["--window-size=%d,%d" % (w, h), "--screenshot=" + out,
                                             "file://" + os.path.join(site, page)],
                                   capture_output=True, text=True, timeout=60)
                errors += ["%s: %s" % (out, l) for l in r.stderr.splitlines()
                           if "CONSOLE" in l or "Uncaught" in l]
                if not os.path.isfile(out) or png_rows(out) < 5:
                    sys.exit("screenshot %s missing or blank" % out)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if errors:
        sys.exit("console errors:\n" + "\n".join(errors))

    index = doms["index.html"]
    for needle in ("<table id=\"series\">", "<svg class=\"spark\"", "rows shown", "(by site test, ",
                   "1x H100, 80G: &lt;b&gt;&amp;",
                   "kernel &lt;b&gt;6.8&lt;/b&gt; &amp; \"new\" image"):
        if needle not in index:
            sys.exit("index DOM lacks %r" % needle)
    if "<b>&amp;" in index or "<b>6.8</b>" in index:
        sys.exit("a hostile string became markup in the index")
    if '<svg class="chart"' not in doms[series]:
        sys.exit("series page has no chart")
    rows = re.findall(r"<tr data-verdict=[^>]*>.*?</tr>", f.stdout, re.S)
    shown = [r for r in rows if " hidden" not in r.split(">", 1)[0]]
    if not rows or not shown or len(shown) == len(rows) or any("0.9.1" not in r for r in shown):
        sys.exit("filter #q=0.9.1: %d rows, %d shown" % (len(rows), len(shown)))
    want = "%d of %d rows shown" % (len(shown), len(rows))
    if want not in f.stdout:
        sys.exit("filter count line lacks %r" % want)
    print("chromium: %d pages load with no console errors, every link resolves, the filter "
          "shows %s, screenshots not blank" % (len(pages), want))
    return 0


if __name__ == "__main__":
    sys.exit(main())
