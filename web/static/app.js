// Light progressive enhancement; every page works without it.
"use strict";
document.addEventListener("keydown", function (e) {
  // "/" jumps to the search box, as in many sites, unless typing already.
  var t = e.target;
  if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
  var q = document.getElementById("q");
  if (!q) { window.location.href = "/memories"; return; }
  e.preventDefault();
  q.focus();
});
// Forms that destroy something ask first; search forms leave their empty
// filters out of the address.
document.addEventListener("submit", function (e) {
  var f = e.target;
  var msg = f.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) { e.preventDefault(); return; }
  if (f.method === "get") {
    Array.prototype.forEach.call(f.elements, function (el) {
      if (el.name && el.value === "") el.disabled = true;
    });
  }
});
// Pages restored from the back/forward cache get their fields back.
window.addEventListener("pageshow", function () {
  Array.prototype.forEach.call(document.querySelectorAll("form [disabled]"), function (el) { el.disabled = false; });
});
