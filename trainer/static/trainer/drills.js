// Keyboard play for drills: number keys pick an option, P passes, N opens the next drill.
// Enter submits the focused form natively. After htmx settles a drill in, focus moves to the
// feedback (after an answer), the second-card choice (after a lead's first card) or the first
// control (a new drill, scrolled to the top of the screen), so keyboard users never get lost.
// The swap replaces #drill-area (outerHTML), so the element htmx swapped is gone: always look
// the new content up afresh.
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

  function focusDrill() {
    var area = document.getElementById("drill-area");
    var feedback = document.getElementById("feedback");
    if (feedback && feedback.textContent.trim()) {
      feedback.focus();
      return;
    }
    if (!area) return;
    var second = area.querySelector('button.card[name="c2"]');
    if (second) {  // a lead's first card was taken: the same drill, its next step
      second.focus();
      return;
    }
    // A new drill (Next, N, Skip) starts at the top, with its question and partner's signal
    // in view, whatever the last one's answer had scrolled to: the page's own top (the
    // breadcrumbs and the step or set it belongs to) when the drill begins in the upper third
    // of the screen, else the drill's top.
    var top = area.getBoundingClientRect().top;
    if (top < 0) {
      if (top + window.scrollY < window.innerHeight / 3) window.scrollTo(0, 0);
      else area.scrollIntoView({block: "start"});
    }
    var first = area.querySelector('button.card, input[type=radio]:not(:disabled)');
    if (first) first.focus({preventScroll: true});
  }

  document.body.addEventListener("htmx:afterSettle", focusDrill);
})();
