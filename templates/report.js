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
}());
