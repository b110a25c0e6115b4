// Keyboard play at the table: ← → (or ↑ ↓) move between the cards South may play, 1–9 pick
// the n-th of them, Enter plays the picked card (a focused button submits natively), P passes,
// F forces. Keys wait until the bots' steps have been shown (the table area's data-ready
// delay), then focus goes to South's first playable card. htmx replaces #table-area whole,
// so everything is looked up afresh on each key and after each swap.
(function () {
  "use strict";

  var STEP_MS = 550;
  var readyAt = 0;

  function typing(target) {
    return target && (target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "radio");
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  function area() {
    return document.getElementById("table-area");
  }

  function cards() {
    var a = area();
    return a ? Array.prototype.slice.call(a.querySelectorAll("#south-hand button[data-action]")) : [];
  }

  function arm() {
    var a = area();
    if (!a) return;
    var steps = parseInt(a.getAttribute("data-ready") || "0", 10);
    var wait = reducedMotion() ? 0 : steps * STEP_MS + 300;
    readyAt = Date.now() + wait;
    window.setTimeout(function () {
      var first = cards()[0];
      var error = a.querySelector("[data-error]");
      var result = a.querySelector("[data-result] h2");
      if (first) {
        first.focus();
      } else if (error) {
        error.setAttribute("tabindex", "-1");
        error.focus();
      } else if (result) {
        result.setAttribute("tabindex", "-1");
        result.focus();
      }
    }, wait);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var a = area();
    if (!a || Date.now() < readyAt) return;
    var list = cards();
    var key = event.key;
    var at = list.indexOf(document.activeElement);
    if (/^[1-9]$/.test(key)) {
      var pick = list[parseInt(key, 10) - 1];
      if (pick) {
        pick.focus();
        event.preventDefault();
      }
      return;
    }
    if (key === "ArrowRight" || key === "ArrowDown" || key === "ArrowLeft" || key === "ArrowUp") {
      if (!list.length) return;
      var forward = key === "ArrowRight" || key === "ArrowDown";
      var next = at < 0 ? 0 : (at + (forward ? 1 : -1) + list.length) % list.length;
      list[next].focus();
      event.preventDefault();
      return;
    }
    if (key === "Enter" && at < 0 && list.length === 1) {
      list[0].click();
      event.preventDefault();
      return;
    }
    var action = { p: "pass", f: "force" }[key.toLowerCase()];
    if (action) {
      var button = a.querySelector('button[data-action="' + action + '"]');
      if (button) {
        event.preventDefault();
        button.click();
      }
    }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", arm);
  } else {
    arm();
  }
  document.body.addEventListener("htmx:afterSettle", arm);
})();
