// Copy buttons: <button type="button" data-copy="ELEMENT-ID" hidden>Copy</button> copies the
// value (or text) of the element with that id and says so in the button's status line. The
// buttons are hidden until this script shows them, so a page without JavaScript has none.
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("button[data-copy][hidden]").forEach(function (button) {
      button.hidden = false;
    });
  }

  function say(button, text) {
    var status = button.parentNode.querySelector("[data-copy-status]");
    if (status) status.textContent = text;
  }

  function fallback(source) {
    if (typeof source.select !== "function") return false;
    source.select();
    try { return document.execCommand("copy"); } catch (e) { return false; }
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy]");
    if (!button) return;
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    var text = "value" in source && source.value !== undefined ? source.value
      : source.textContent.trim();
    // The words come from the page (data-copied, data-copy-failed: in its language).
    var done = function () { say(button, button.getAttribute("data-copied") || "Copied."); };
    var failed = function () {
      if (fallback(source)) done();
      else say(button, button.getAttribute("data-copy-failed") || "Select the text and copy it.");
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, failed);
    } else {
      failed();
    }
  });

  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSettle", function () { reveal(document); });
})();
