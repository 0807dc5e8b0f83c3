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
// Forms that destroy something ask first.
document.addEventListener("submit", function (e) {
  var msg = e.target.getAttribute("data-confirm");
  if (msg && !window.confirm(msg)) e.preventDefault();
});
