// Keyboard play for drills: number keys pick an option, P passes, N opens the next drill.
// Enter submits the focused form natively. After htmx swaps a drill in, focus moves to the
// feedback (after an answer) or the first control (a new drill), so keyboard users never get lost.
(function () {
  "use strict";

  function typing(target) {
    return target && (target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "radio");
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var area = document.getElementById("drill-area");
    if (!area) return;
    var key = event.key.toLowerCase();
    if (/^[1-9]$/.test(key)) {
      var radio = area.querySelector('input[data-option-index="' + key + '"]:not(:disabled)');
      if (radio) {
        radio.checked = true;
        radio.focus();
        event.preventDefault();
      }
      return;
    }
    var target = area.querySelector('[data-key="' + key + '"]');
    if (target) {
      event.preventDefault();
      target.click();
    }
  });

  document.body.addEventListener("htmx:afterSwap", function (event) {
    var area = document.getElementById("drill-area");
    if (!area || !area.contains(event.detail.target) && event.detail.target !== area) {
      var fb = document.getElementById("feedback");
      if (fb && fb.textContent.trim()) fb.focus();
      return;
    }
    var feedback = document.getElementById("feedback");
    if (feedback && feedback.textContent.trim()) {
      feedback.focus();
      return;
    }
    var first = area.querySelector("button.card, input[type=radio]");
    if (first) first.focus();
  });
})();
