// Sorts a table by the clicked column: numerically on data-v when every
// cell has one, else as text. No network, no libraries.
(function () {
  function key(td) {
    var v = td.getAttribute('data-v');
    return v !== null && v !== '' && !isNaN(Number(v)) ? Number(v) : null;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var ths = table.querySelectorAll('thead th');
    ths.forEach(function (th, col) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        var asc = !th.classList.contains('asc');
        ths.forEach(function (h) { h.classList.remove('asc', 'desc'); });
        th.classList.add(asc ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = a.cells[col], y = b.cells[col];
          if (!x || !y) return 0;
          var kx = key(x), ky = key(y), r;
          if (kx !== null && ky !== null) r = kx - ky;
          else r = x.textContent.localeCompare(y.textContent);
          return asc ? r : -r;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  // Printing opens every collapsed section, so paper holds the whole report.
  window.addEventListener('beforeprint', function () {
    document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  });
  // Self-test for the browser test (tests/browser/check_bundle.py): with the
  // fragment #selftest-sort, click the header of the first column (of any
  // sortable table) whose cells all carry a number, not all the same, twice,
  // and write the column's values after each click into the page, where a
  // DOM dump shows them. Nothing happens without the fragment.
  if (location.hash !== '#selftest-sort') return;
  var out = [];
  var tables = document.querySelectorAll('table.sortable');
  for (var t = 0; t < tables.length && !out.length; t++) {
    var table = tables[t], ths = table.querySelectorAll('thead th');
    for (var c = 0; c < ths.length && !out.length; c++) {
      var rows = table.tBodies[0].rows, all = rows.length > 1, seen = {}, distinct = 0;
      for (var i = 0; i < rows.length && all; i++) {
        all = !!rows[i].cells[c] && key(rows[i].cells[c]) !== null;
        if (all && !seen[key(rows[i].cells[c])]) {
          seen[key(rows[i].cells[c])] = true;
          distinct++;
        }
      }
      if (!all || distinct < 2) continue;
      ['asc', 'desc'].forEach(function (dir) {
        ths[c].click();
        var v = Array.prototype.map.call(table.tBodies[0].rows, function (r) {
          return r.cells[c].getAttribute('data-v');
        });
        out.push(dir + ' ' + ths[c].className + ' table ' + t + ' column ' + c + ': ' + v.join(','));
      });
    }
  }
  var p = document.createElement('pre');
  p.id = 'selftest-sort';
  p.textContent = out.length ? out.join('\n') : 'no numeric column';
  document.body.appendChild(p);
}());
