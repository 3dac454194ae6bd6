#!/usr/bin/env python3
"""Checks what a reader sees in the demo's report bundles (ctest:
report_svg_overlap, report_zh_english, report_xlsx_pages). Renders the
three report definitions of reports/ from samples/ in en and zh-CN into
WORK, then one check:

  overlap   every SVG of every bundle (ours and gnuplot's): no two text
            labels' boxes overlap, and none runs off the canvas. A <text>'s box is estimated as svg.h
            says (PL_SVG_COL_EM): 0.6 * font-size per display column
            (East Asian wide characters 2 columns), from 0.8 * font-size
            above the baseline to 0.2 * font-size below; placed by its
            x/y, text-anchor (start, middle, end) and the translate() and
            rotate() transforms of it and its parents; two boxes overlap
            when their rotated rectangles intersect by more than 0.5 px
            (separating axis test).
  english   no English sentence in a zh-CN bundle's report.md, report.html
            (visible text, title/alt/aria-label attributes), SVGs and
            workbook strings (cells, chart titles and axis names), and no
            English word in its workbook's sheet names. A
            sentence is 3 or more consecutive English words (a word: 2+
            ASCII letters, optionally joined by ' or -) separated only by
            spaces, commas, semicolons, colons or slashes, after removing
            names and values: the axis and shared condition values of the
            bundle's comparison.json, every string of its definition.json
            (the author's own title, description, prices), the runs'
            condition values and source paths (hardware, model, engine
            ...), which are data, not our prose.
  pages     comparison.xlsx of every bundle converts to PDF with
            LibreOffice in at most 3 pages per sheet, no sheet below a 73% print scale (11 pt text stays 8 pt or more).
  workbook  comparison.xlsx of every bundle as printed: no two cells'
            text touches (a number at its cell's right edge beside a text
            at the next cell's left edge, "1" and "2x NVIDIA" printing as
            "12x NVIDIA"; a text as wide as its column beside another),
            and every chart has a readable shape: its frame (the drawing's
            cell anchors, measured with Excel's column widths and with
            LibreOffice's wider ones where Calibri is missing) 1.2 to 2.5
            times as wide as tall (a horizontal bar chart, read down its
            rows, 0.8 to 2.5), and its plot area, once the title,
            axes and a bottom legend are taken off, at least 40% of the
            frame's height (a legend of long names squashed the scatter
            chart's plot into a strip, 16 row labels turned 45 degrees
            the Comparison sheet's column chart's).

    check_report_text.py overlap|english|pages|workbook --bin PERFLEDGER --source SRC --work DIR

Exit 77 (ctest SKIP_RETURN_CODE) when a program it needs is missing
(pages: soffice; workbook: python3-openpyxl).
"""
import argparse, glob, json, math, os, re, shutil, subprocess, sys, tempfile, unicodedata, zipfile
import xml.etree.ElementTree as ET

SPECS = ("procurement-review", "publication", "regression-watch")
LANGS = ("en", "zh-CN")
COL_EM = 0.6


def render(args):
    work = os.path.join(args.work, "bundles")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    env = dict(os.environ, PERFLEDGER_DB=os.path.join(work, "db"), SOURCE_DATE_EPOCH="1790000000")
    cmds = [[args.bin, "import", "samples"]]
    for spec in SPECS:
        for lang in LANGS:
            cmds.append([args.bin, "report", "--spec", "reports/%s.json" % spec, "--lang", lang,
                         "--out", os.path.join(work, "%s.%s" % (spec, lang))])
    # the demo's axis report (English only): its bar charts are gnuplot's
    # (where installed), checked for labels over bars as well
    for lang in ("en",):
        cmds.append([args.bin, "report", "--axis", "hardware",
                     "--where", "model=llama-3.1-8b-instruct", "--where", "dataset=random-1024-256",
                     "--where", "engine_version=0.8.5", "--where", "concurrency=16",
                     "--out", os.path.join(work, "demo-axis.%s" % lang)])
    # many rows with long labels (the procurement sweep: 16 rows, "ExampleCloud
    # serverless API / cloud-api / examplecloud / 64"): gnuplot's bar charts
    # turned 16 such labels 90 degrees, which took the chart's height and
    # piled the value axis's numbers on each other
    cmds.append([args.bin, "report", "--axis", "hardware,deployment,engine,concurrency",
                 "--where", "model=llama-3.1-70b-instruct", "--where", "dataset=random-2048-512",
                 "--out", os.path.join(work, "demo-rows.en")])
    for argv in cmds:
        r = subprocess.run(argv, cwd=args.source, env=env, capture_output=True, text=True)
        # import exits 4 when a sample is rejected on purpose; reports must succeed
        if r.returncode != 0 and not (argv[1] == "import" and r.returncode == 4):
            sys.exit("%s failed (%d): %s" % (" ".join(argv), r.returncode, r.stderr))
    return work


# ------------------------------------------------------------------ overlap

def cols(s):
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else
               0 if unicodedata.combining(c) else 1 for c in s)


def parse_transform(t):
    """A list of 3x3 affine matrices (as 6-tuples a,b,c,d,e,f) from an SVG
    transform attribute: translate and rotate (about the origin)."""
    ms = []
    for name, argstr in re.findall(r"(translate|rotate)\s*\(([^)]*)\)", t or ""):
        a = [float(v) for v in re.split(r"[\s,]+", argstr.strip()) if v]
        if name == "translate":
            ms.append((1, 0, 0, 1, a[0], a[1] if len(a) > 1 else 0))
        else:
            r = math.radians(a[0])
            m = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0, 0)
            if len(a) == 3:
                cx, cy = a[1], a[2]
                ms.append((1, 0, 0, 1, cx, cy))
                ms.append(m)
                ms.append((1, 0, 0, 1, -cx, -cy))
            else:
                ms.append(m)
    return ms


def mul(m, n):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e,
            b * E + d * F + f)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def text_boxes(path):
    """(label, corners) of every non-blank <text> of the SVG at path."""
    root = ET.parse(path).getroot()
    out = []

    def walk(el, m, fs, anchor):
        tag = el.tag.split("}")[-1]
        for t in parse_transform(el.get("transform")):
            m = mul(m, t)
        if el.get("font-size"):
            fs = float(re.match(r"[\d.]+", el.get("font-size")).group(0))
        anchor = el.get("text-anchor", anchor)
        if tag == "text":
            s = "".join(el.itertext()).strip()
            if s:
                x, y = float(el.get("x", 0)), float(el.get("y", 0))
                w = COL_EM * fs * cols(s)
                x0 = x if anchor == "start" else x - w / 2 if anchor == "middle" else x - w
                corners = [apply(m, px, py) for px, py in
                           ((x0, y - 0.8 * fs), (x0 + w, y - 0.8 * fs), (x0 + w, y + 0.2 * fs),
                            (x0, y + 0.2 * fs))]
                out.append((s, corners))
            return
        for ch in el:
            walk(ch, m, fs, anchor)

    walk(root, (1, 0, 0, 1, 0, 0), 16.0, "start")
    return out


def overlap(p, q, slack=0.5):
    """Separating axis test of two convex quadrilaterals; True when they
    overlap by more than slack px along every axis."""
    for poly in (p, q):
        for i in range(4):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % 4]
            nx, ny = y1 - y2, x2 - x1
            ln = math.hypot(nx, ny) or 1
            nx, ny = nx / ln, ny / ln
            pa = [nx * x + ny * y for x, y in p]
            qa = [nx * x + ny * y for x, y in q]
            if min(max(pa), max(qa)) - max(min(pa), min(qa)) <= slack:
                return False
    return True


def bar_boxes(path):
    """The corners of every filled bar of a gnuplot SVG (its <polygon>s
    with a fill; the key's swatches included)."""
    out = []
    for el in ET.parse(path).getroot().iter():
        if el.tag.split("}")[-1] == "polygon" and el.get("fill", "none") != "none":
            pts = [tuple(float(v) for v in pt.split(",")) for pt in el.get("points", "").split()]
            if len(pts) == 4:
                out.append(pts)
    return out


def canvas(path):
    """(width, height) of the SVG: its viewBox, else its width/height."""
    root = ET.parse(path).getroot()
    vb = root.get("viewBox")
    if vb:
        v = [float(x) for x in re.split(r"[\s,]+", vb.strip())]
        return v[2], v[3]
    num = lambda s: float(re.match(r"[\d.]+", s).group(0))
    return num(root.get("width")), num(root.get("height"))


def check_overlap(work):
    bad, n, gp = [], 0, 0
    for path in sorted(glob.glob(os.path.join(work, "*", "*.svg"))):
        boxes = text_boxes(path)
        w, h = canvas(path)
        n += 1
        gp += bool(bar_boxes(path))
        for s, corners in boxes:  # a label cut at the edge is not readable either
            if any(x < -0.5 or x > w + 0.5 or y < -0.5 or y > h + 0.5 for x, y in corners):
                bad.append("%s: %r runs off the %gx%g canvas" % (os.path.relpath(path, work), s, w, h))
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                if overlap(boxes[i][1], boxes[j][1]):
                    bad.append("%s: %r overlaps %r" % (os.path.relpath(path, work), boxes[i][0],
                                                       boxes[j][0]))
        for s, corners in boxes:  # gnuplot's bars: a label drawn over one
            for bar in bar_boxes(path):
                if overlap(corners, bar):
                    bad.append("%s: %r overlaps a bar" % (os.path.relpath(path, work), s))
    if n == 0:
        sys.exit("no SVG in the bundles")
    if bad:
        sys.exit("overlapping labels:\n  " + "\n  ".join(bad))
    print("overlap: %d SVGs (%d with filled polygons), no two labels overlap, none over a filled polygon" % (n, gp))
    return 0


# ------------------------------------------------------------------ english

WORD = r"[A-Za-z]{2,}(?:['-][A-Za-z]+)*"
SENTENCE = re.compile(r"(?<![\w.])%s(?:[ ,;:/]+%s){2,}(?![\w])" % (WORD, WORD))


def strings_of(v, acc):
    """Every string of v, dict keys included (a price table's keys are
    hardware names)."""
    if isinstance(v, str):
        acc.add(v)
    elif isinstance(v, dict):
        for k, x in v.items():
            acc.add(k)
            strings_of(x, acc)
    elif isinstance(v, list):
        for x in v:
            strings_of(x, acc)


def allow_list(bundle, db_values):
    """Names and values from the data, not prose of ours: the axis and
    shared condition values of comparison.json (not its caveats, which are
    our sentences), everything the report definition says (written by its
    author: title, description, where, prices), and db_values."""
    acc = set(db_values)
    with open(os.path.join(bundle, "comparison.json"), encoding="utf-8") as f:
        cmp = json.load(f)
    strings_of(cmp.get("shared_conditions"), acc)
    for row in cmp.get("rows", []):
        strings_of(row.get("axis"), acc)
    with open(os.path.join(bundle, "definition.json"), encoding="utf-8") as f:
        strings_of(json.load(f), acc)
    # longest first, so a name containing another is removed whole
    return sorted((s for s in acc if len(s) >= 2), key=len, reverse=True)


class Visible(__import__("html.parser").parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.skip, self.out = 0, []

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for k, v in attrs:
            if k in ("title", "alt", "aria-label") and v:
                self.out.append(v)

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, d):
        if not self.skip:
            self.out.append(d)


def texts_of_bundle(bundle):
    """(file, text) pairs of what a reader sees."""
    out = []
    md = os.path.join(bundle, "report.md")
    out.append(("report.md", re.sub(r"\]\([^)]*\)", "]", open(md, encoding="utf-8").read())))
    v = Visible()
    v.feed(open(os.path.join(bundle, "report.html"), encoding="utf-8").read())
    out.append(("report.html", "\n".join(v.out)))
    for svg in sorted(glob.glob(os.path.join(bundle, "*.svg"))):
        root = ET.parse(svg).getroot()
        out.append((os.path.basename(svg), "\n".join(
            "".join(e.itertext()) for e in root.iter() if e.tag.split("}")[-1] in ("text", "title"))))
    with zipfile.ZipFile(os.path.join(bundle, "comparison.xlsx")) as z:
        for name in z.namelist():
            if name == "xl/sharedStrings.xml" or name.startswith("xl/charts/chart"):
                root = ET.fromstring(z.read(name))
                out.append(("comparison.xlsx:" + name, "\n".join(
                    "".join(e.itertext()) for e in root.iter() if e.tag.split("}")[-1] in ("t",))))
    return out


def run_values(args, work):
    """The runs' condition values, sources and adapters (list --format json)."""
    env = dict(os.environ, PERFLEDGER_DB=os.path.join(work, "db"))
    r = subprocess.run([args.bin, "list", "--format", "json"], cwd=args.source, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("list --format json failed: %s" % r.stderr)
    acc = set()
    for run in json.loads(r.stdout):
        for key in ("source", "adapter", "record"):
            if isinstance(run.get(key), str):
                acc.add(run[key])
                acc.add(os.path.basename(run[key]))
        strings_of(run.get("conditions"), acc)
    return acc


def check_english(args, work):
    values = run_values(args, work)
    bad = []
    for spec in SPECS:
        bundle = os.path.join(work, "%s.zh-CN" % spec)
        allow = allow_list(bundle, values)
        # a name or value is removed where it stands as a whole (not inside a word)
        names = re.compile(r"(?<![A-Za-z0-9])(?:%s)(?![A-Za-z0-9])" % "|".join(map(re.escape, allow)))
        for name, text in texts_of_bundle(bundle):
            for line in text.split("\n"):
                clean = names.sub(" \u25a1 ", line)
                # a command a reader types ('perfledger verify --offline ...') is
                # not prose: it is the same in every language
                clean = re.sub(r"'perfledger [^']*'", " \u25a1 ", clean)
                for m in SENTENCE.finditer(clean):
                    bad.append("%s.zh-CN/%s: %r in %r" % (spec, name, m.group(0), line.strip()[:160]))
        # the workbook's sheet tabs are ours: Chinese, not one English word
        with zipfile.ZipFile(os.path.join(bundle, "comparison.xlsx")) as z:
            root = ET.fromstring(z.read("xl/workbook.xml"))
        for e in root.iter():
            if e.tag.split("}")[-1] == "sheet" and re.search(r"[A-Za-z]{2,}", e.get("name", "")):
                bad.append("%s.zh-CN/comparison.xlsx: sheet name %r" % (spec, e.get("name")))
    if bad:
        sys.exit("English sentences in zh-CN reports (%d):\n  " % len(bad) + "\n  ".join(bad))
    print("english: no English sentence in the zh-CN bundles")
    return 0


# -------------------------------------------------------------------- pages

def check_pages(work):
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if not exe:
        print("libreoffice not installed: skipped")
        return 77
    profile = tempfile.mkdtemp(prefix="pl-lo-")
    bad, seen = [], []
    try:
        for spec in SPECS:
            for lang in LANGS:
                bundle = os.path.join(work, "%s.%s" % (spec, lang))
                xlsx = os.path.join(bundle, "comparison.xlsx")
                out = os.path.join(work, "pdf", "%s.%s" % (spec, lang))
                r = subprocess.run([exe, "-env:UserInstallation=file://" + profile, "--headless",
                                    "--convert-to", "pdf", "--outdir", out, xlsx],
                                   capture_output=True, text=True, timeout=180)
                pdf = os.path.join(out, "comparison.pdf")
                if r.returncode != 0 or not os.path.exists(pdf):
                    sys.exit("soffice --convert-to pdf failed on %s: %s %s" % (xlsx, r.stdout, r.stderr))
                data = open(pdf, "rb").read()
                pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
                with zipfile.ZipFile(xlsx) as z:
                    sheets = len(re.findall(rb"<sheet ", z.read("xl/workbook.xml")))
                seen.append("%s.%s %d pages / %d sheets" % (spec, lang, pages, sheets))
                # a wide sheet is split across pages at a scale that keeps
                # 11 pt text at 8 pt or more (73%), never shrunk to fit
                if pages == 0 or pages > 3 * sheets:
                    bad.append(seen[-1])
                with zipfile.ZipFile(xlsx) as z:
                    for name in sorted(n for n in z.namelist() if n.startswith("xl/worksheets/sheet")):
                        m = re.search(rb'<pageSetup[^>]*\bscale="(\d+)"', z.read(name))
                        if m and int(m.group(1)) < 73:
                            bad.append("%s.%s %s prints at %s%%: 11 pt text below 8 pt"
                                       % (spec, lang, name, m.group(1).decode()))
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    if bad:
        sys.exit("workbooks print on more than 3 pages per sheet or below 8 pt: " + "; ".join(bad))
    print("pages: " + "; ".join(seen))
    return 0


# ----------------------------------------------------------------- workbook

def col_px(width, digit):
    """Pixels of a column <width> characters wide (the XML's width, which
    includes Excel's padding) for a font whose digit is <digit> px wide
    (ECMA-376 18.3.1.13)."""
    return int(((256 * width + int(128 / digit)) / 256) * digit)


def touching_cells(ws):
    """'B3 "1" | C3 "2x NVIDIA"' for each pair of side-by-side cells whose
    printed text touches: the left one ends at its cell's right edge (a
    number or boolean aligned right, or a text too wide for its column
    that is not wrapped) and the right one starts at its cell's left edge
    (a text aligned left without indent)."""
    from openpyxl.utils import get_column_letter
    bad = []

    def width(c):
        d = ws.column_dimensions.get(get_column_letter(c))
        return d.width if d is not None and d.width else 8.43

    def ends_at_edge(cell):
        a = cell.alignment
        h = a.horizontal or "general"
        if cell.data_type in ("n", "b"):
            return h in ("general", "right") and not (h == "right" and a.indent)
        if cell.data_type == "s":
            if h == "right":
                return not a.indent
            return not a.wrap_text and h in ("general", "left") and \
                cols(str(cell.value)) + (a.indent or 0) * 2 >= width(cell.column) - 0.72
        return False

    def starts_at_edge(cell):
        a = cell.alignment
        h = a.horizontal or "general"
        if cell.data_type == "s":
            return h in ("general", "left") and not a.indent
        return h == "left" and not a.indent

    for row in ws.iter_rows():
        for left, right in zip(row, row[1:]):
            if left.value in (None, "") or right.value in (None, ""):
                continue
            if ends_at_edge(left) and starts_at_edge(right):
                bad.append("%s %r | %s %r" % (left.coordinate, str(left.value)[:30],
                                                right.coordinate, str(right.value)[:30]))
    return bad


def chart_shapes(z, sheet_xml):
    """[(chart file, [(digit px, width px, height px)], series, bottom
    legend, title)] of the charts drawn on one sheet of the open zip z."""
    import posixpath
    ns = {"x": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
          "xdr": "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing",
          "c": "http://schemas.openxmlformats.org/drawingml/2006/chart",
          "a": "http://schemas.openxmlformats.org/drawingml/2006/main",
          "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships"}

    def rels(part):
        d, b = posixpath.split(part)
        path = posixpath.join(d, "_rels", b + ".rels")
        if path not in z.namelist():
            return {}
        return {e.get("Id"): posixpath.normpath(posixpath.join(d, e.get("Target")))
                for e in ET.fromstring(z.read(path))}

    sheet = ET.fromstring(z.read(sheet_xml))
    widths = {}
    for c in sheet.iter("{%s}col" % ns["x"]):
        for i in range(int(c.get("min")), int(c.get("max")) + 1):
            widths[i - 1] = float(c.get("width"))
    fmt = sheet.find("x:sheetFormatPr", ns)
    default_ht = float(fmt.get("defaultRowHeight", 15)) if fmt is not None else 15.0
    heights = {int(r.get("r")) - 1: float(r.get("ht")) for r in sheet.iter("{%s}row" % ns["x"])
               if r.get("ht")}
    drawing = sheet.find("x:drawing", ns)
    if drawing is None:
        return []
    dpart = rels(sheet_xml)[drawing.get("{%s}id" % ns["r"])]
    drels = rels(dpart)
    out = []
    for anchor in ET.fromstring(z.read(dpart)).findall("xdr:twoCellAnchor", ns):
        f, t = anchor.find("xdr:from", ns), anchor.find("xdr:to", ns)
        g = lambda e, k: int(e.find("xdr:" + k, ns).text)
        chart = anchor.find(".//c:chart", ns)
        if chart is None:
            continue
        cpart = drels[chart.get("{%s}id" % ns["r"])]
        sizes = []
        for digit in (7, 28 / 3):  # Calibri 11 (Excel); DejaVu Sans 11 (LibreOffice without Calibri)
            w = sum(col_px(widths.get(c, 8.43), digit) for c in range(g(f, "col"), g(t, "col")))
            w += (g(t, "colOff") - g(f, "colOff")) / 9525.0
            h = sum(heights.get(r, default_ht) * 4 / 3 for r in range(g(f, "row"), g(t, "row")))
            h += (g(t, "rowOff") - g(f, "rowOff")) / 9525.0
            sizes.append((digit, w, h))
        croot = ET.fromstring(z.read(cpart))
        names = ["".join(s.itertext()) for s in croot.iter("{%s}tx" % ns["c"])]
        bar_dir = croot.find(".//c:barDir", ns)
        cats = []  # the category labels of a bar chart: (direction, labels)
        if bar_dir is not None and croot.find(".//c:catAx", ns) is not None:
            cat = croot.find(".//c:ser/c:cat", ns)
            cats = (bar_dir.get("val"), [v.text or "" for v in cat.iter("{%s}v" % ns["c"])]
                    if cat is not None else [])
        legend = croot.find(".//c:legend/c:legendPos", ns)
        title = croot.find(".//c:title", ns)
        out.append((cpart, sizes, names,
                    legend is not None and legend.get("val") == "b",
                    "".join(title.itertext()) if title is not None else "", cats))
    return out


def label_px(s, em):
    """Width in px of a 10 pt label."""
    return cols(s) * 0.6 * 13.3 * em


def plot_height(w, h, names, bottom_legend, title, digit, cats=()):
    """An estimate of a chart's plot area height in px: the frame's height
    less the title (18 pt bold, wrapped at 80% of the width), the x axis
    (its numbers and title, 40 px), 20 px of margins and a bottom legend
    (10 pt; its entries side by side while they fit in 90% of the width,
    else a line of 20 px per row). A column chart's category labels
    (cats: ("col", labels)) below it take a 16 px line each when every
    word fits the category's slot (they wrap), else they are turned 45
    degrees and take their length * 0.71; a bar chart's ("bar") stand
    left of the bars, wrapped in 40% of the width, 16 px a line: its
    plot area is 0 when the categories' lines do not fit its height.
    The character widths scale with the font's digit width."""
    em = digit / 7.0
    axis = 40
    if cats and cats[1]:
        direction, labels = cats
        longest = max(label_px(s, em) for s in labels)
        if direction == "bar":
            cat_lines = math.ceil(longest * 0.9 / (0.4 * w))
        else:
            slot = (w - 60) / len(labels)
            if all(label_px(word, em) <= slot for s in labels for word in s.split()):
                axis = 20 + 16 * max(math.ceil(label_px(s, em) / slot) for s in labels)
            else:
                axis = 20 + longest * 0.71
    tw = cols(title) * 0.6 * 24 * em
    lines = max(1, math.ceil(tw / (0.8 * w))) if title else 0
    legend = 0
    if bottom_legend and names:
        rows, x = 1, 0.0
        for n in names:
            ew = cols(n) * 0.6 * 13.3 * em + 30
            if x and x + ew > 0.9 * w:
                rows, x = rows + 1, 0.0
            x += ew
        legend = rows * 20
    plot = h - lines * 30 - axis - 20 - legend
    if cats and cats[1] and cats[0] == "bar" and plot < 16 * cat_lines * len(cats[1]):
        return 0
    return plot


def check_workbook(work):
    try:
        import openpyxl
    except ImportError:  # scripts/deps.sh test installs python3-openpyxl
        print("python3-openpyxl not installed: skipped")
        return 77
    bad, seen = [], 0
    for spec in SPECS:
        for lang in LANGS:
            name = "%s.%s" % (spec, lang)
            xlsx = os.path.join(work, name, "comparison.xlsx")
            wb = openpyxl.load_workbook(xlsx)
            for ws in wb.worksheets:
                for t in touching_cells(ws):
                    bad.append("%s %s: %s" % (name, ws.title, t))
            with zipfile.ZipFile(xlsx) as z:
                for sx in sorted(n for n in z.namelist()
                                 if re.match(r"xl/worksheets/sheet\d+\.xml$", n)):
                    for cpart, sizes, names, bl, title, cats in chart_shapes(z, sx):
                        seen += 1
                        for digit, w, h in sizes:
                            where = "%s %s %s (%.0fx%.0f px, digit %.1f px)" % (
                                name, sx, cpart, w, h, digit)
                            # a horizontal bar chart is read down its rows:
                            # it may be taller, one row of labels each
                            low = 0.8 if cats and cats[0] == "bar" else 1.2
                            if not low <= w / h <= 2.5:
                                bad.append("%s: aspect %.2f, not %.1f to 2.5" % (where, w / h, low))
                            ph = plot_height(w, h, names, bl, title, digit, cats)
                            if ph < 0.4 * h:
                                bad.append("%s: plot area about %.0f px tall, under 40%% of the frame"
                                           % (where, ph))
    if seen == 0:
        sys.exit("no chart in the workbooks")
    if bad:
        sys.exit("workbook cells or charts a reader cannot read (%d):\n  " % len(bad)
                 + "\n  ".join(bad))
    print("workbook: no touching cells; %d charts of a readable shape" % seen)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["overlap", "english", "pages", "workbook"])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    args.work = os.path.join(os.path.abspath(args.work), args.mode)
    args.bin = os.path.abspath(args.bin)
    work = render(args)
    if args.mode == "overlap":
        return check_overlap(work)
    if args.mode == "english":
        return check_english(args, work)
    if args.mode == "workbook":
        return check_workbook(work)
    return check_pages(work)


if __name__ == "__main__":
    sys.exit(main())
