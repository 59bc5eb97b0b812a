(function () {
  "use strict";
  /* Optional: the report is complete without this script. It makes the figure table sortable and
     filterable and opens every collapsed section before printing. */
  var table = document.getElementById("figures-table");
  if (table && table.tBodies.length) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var tools = document.getElementById("figure-tools");
    var q = document.getElementById("figure-filter");
    var sel = document.getElementById("figure-quantity");
    var count = document.getElementById("figure-count");
    var apply = function () {
      var t = q.value.trim().toLowerCase(), k = sel.value, n = 0;
      rows.forEach(function (r) {
        var ok = (!k || r.getAttribute("data-quantity") === k) &&
                 (!t || r.textContent.toLowerCase().indexOf(t) >= 0);
        r.hidden = !ok;
        if (ok) { n += 1; }
      });
      count.textContent = n + " of " + rows.length + " figures shown";
    };
    if (tools && q && sel && count) {
      tools.hidden = false;
      q.addEventListener("input", apply);
      sel.addEventListener("change", apply);
    }
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "sort";
      b.textContent = th.textContent;
      b.setAttribute("aria-label", "Sort by " + th.textContent);
      th.textContent = "";
      th.appendChild(b);
      b.addEventListener("click", function () {
        var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
        Array.prototype.forEach.call(heads, function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir);
        var numeric = th.getAttribute("data-type") === "number";
        var key = function (r) {
          var c = r.cells[i];
          return c.hasAttribute("data-sort") ? c.getAttribute("data-sort") : c.textContent.trim();
        };
        rows.sort(function (a, b) {
          var x = key(a), y = key(b), c;
          if (numeric) {
            var fx = parseFloat(x), fy = parseFloat(y);
            c = (isNaN(fx) ? Infinity : fx) - (isNaN(fy) ? Infinity : fy);
            if (isNaN(c)) { c = 0; }
          } else {
            c = x.localeCompare(y);
          }
          return dir === "ascending" ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  /* In a batch, this report is OUTDIR/reports/<sheet's path>.html: link back to OUTDIR/index.html. */
  var back = document.getElementById("back-to-index");
  if (back) {
    var here = decodeURIComponent(location.pathname), name = back.getAttribute("data-report");
    var at = here.lastIndexOf("/reports/");
    if (at >= 0 && here.slice(-name.length - 1) === "/" + name) {
      var depth = here.slice(at + 9).split("/").length - 1, up = "../";
      while (depth-- > 0) { up += "../"; }
      back.querySelector("a").setAttribute("href", up + "index.html");
      back.hidden = false;
    }
  }
  var copy = document.getElementById("copy-questions"), qtext = document.getElementById("questions-text");
  if (copy && qtext) {
    copy.hidden = false;
    copy.addEventListener("click", function () {
      qtext.select();
      var done = function () { copy.textContent = "Copied"; };
      var fallback = function () { if (document.execCommand("copy")) { done(); } };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(qtext.value).then(done, fallback);
      } else {
        fallback();
      }
    });
  }
  /* The appendix opened by hand prints every figure; folded, the figures the questions rest on. */
  var fold = document.getElementById("figures-fold"), appendix = document.getElementById("figures");
  if (fold && appendix && !appendix.classList.contains("all-figures")) {
    fold.querySelector("summary").addEventListener("click", function () {
      appendix.classList.toggle("all-figures", !fold.open);
    });
  }
  var opened = [];
  window.addEventListener("beforeprint", function () {
    opened = [];
    Array.prototype.forEach.call(document.querySelectorAll("details:not([open]):not(.passed):not(.assumptions)"), function (d) {
      d.open = true;
      opened.push(d);
    });
  });
  window.addEventListener("afterprint", function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
  });
}());
