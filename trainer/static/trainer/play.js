// The table at /play/: the pace of the bots' moves, Skip, Continue after a hand, and keyboard
// play.
//
// Pace: slow, normal, fast or instant, chosen in the table's header and kept in this
// browser (localStorage); <html data-play-pace> sets the stylesheet's --play-step. Skip (the
// button, S or Escape) shows the steps being animated at once. After a hand of the learner's
// side the table pauses on its summary: Continue (the button, or Enter, Space or C) goes on.
// Keyboard play: ← → (or ↑ ↓) move between the cards South may play, 1–9 pick the n-th of
// them, Enter plays the picked card (a focused button submits natively), P passes, F forces.
// Keys wait until the bots' steps have been shown (the table area's data-ready delay), then
// focus goes to South's first playable card, or to Continue. htmx replaces #table-area whole,
// so everything is looked up afresh on each key and after each swap.
(function () {
  "use strict";

  // The paces; how long a step takes at each is play.css's --play-step, read from there.
  var PACES = ["slow", "normal", "fast", "instant"];
  var STORE = "concerto.play.pace";
  var readyAt = 0;
  var startedAt = 0;
  var timer = 0;

  function pace() {
    var value = null;
    try {
      value = window.localStorage.getItem(STORE);
    } catch (error) {
      value = null;
    }
    return value && PACES.indexOf(value) >= 0 ? value : "normal";
  }

  function keepPace(value) {
    try {
      window.localStorage.setItem(STORE, value);
    } catch (error) {
      // Storage refused (private mode): the choice lasts for this page.
    }
    document.documentElement.setAttribute("data-play-pace", value);
  }

  // At once, before the table's steps have gone far.
  document.documentElement.setAttribute("data-play-pace", pace());

  function typing(target) {
    return target && (target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) && target.type !== "radio");
  }

  function control(target) {
    return target && target.closest && target.closest("button, a[href], summary, select, input");
  }

  function reducedMotion() {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  }

  // Milliseconds per step: the table's --play-step ("0.95s" or "950ms"); none when instant.
  function stepMs() {
    var a = area();
    if (!a || reducedMotion() || document.documentElement.getAttribute("data-play-pace") === "instant") return 0;
    var value = window.getComputedStyle(a).getPropertyValue("--play-step").trim();
    var number = parseFloat(value);
    if (!isFinite(number)) return 0;
    return /ms$/.test(value) ? number : number * 1000;
  }

  function area() {
    return document.getElementById("table-area");
  }

  function cards() {
    var a = area();
    return a ? Array.prototype.slice.call(a.querySelectorAll("#south-hand button[data-action]")) : [];
  }

  function animating() {
    return Date.now() < readyAt;
  }

  function steps(a) {
    return parseInt(a.getAttribute("data-ready") || "0", 10);
  }

  // Give el (in the table area a) the focus. A step's button is hidden until its animation
  // has run, and a busy machine may start the steps' animations later than this script's
  // timer expects: then focus() does nothing, so try again as each step's animation ends,
  // unless the focus has gone somewhere meanwhile (a click, a key) or el has been swapped out.
  function give(a, el) {
    el.focus();
    if (document.activeElement === el) return;
    function again() {
      var free = !document.activeElement || document.activeElement === document.body;
      if (el.isConnected && free) el.focus();
      if (!el.isConnected || !free || document.activeElement === el) {
        a.removeEventListener("animationend", again);
      }
    }
    a.addEventListener("animationend", again);
  }

  // The steps are shown: hide Skip, give the focus to what comes next, unless the player
  // has moved it meanwhile (Tab to a link during the bots' steps): that focus is theirs.
  function settle(a) {
    window.clearTimeout(timer);
    readyAt = 0;
    var skip = a.querySelector("[data-skip]");
    var held = document.activeElement;
    if (skip) skip.hidden = true;
    if (held && held !== document.body && held !== skip && held.isConnected) return;
    var first = cards()[0];
    var go = a.querySelector("[data-continue]");
    var error = a.querySelector("[data-error]");
    var result = a.querySelector("[data-result] h2");
    if (first) {
      give(a, first);
    } else if (go) {
      give(a, go);
    } else if (error) {
      error.setAttribute("tabindex", "-1");
      give(a, error);
    } else if (result) {
      result.setAttribute("tabindex", "-1");
      give(a, result);
    }
  }

  // Wait for the steps at the current pace, from when they started.
  function schedule(a) {
    var ms = stepMs();
    var n = steps(a);
    var wait = ms && n ? n * ms + 300 : 0;
    readyAt = startedAt + wait;
    window.clearTimeout(timer);
    var left = Math.max(0, readyAt - Date.now());
    var skip = a.querySelector("[data-skip]");
    if (skip) skip.hidden = left === 0;
    if (left === 0) {
      settle(a);
    } else {
      timer = window.setTimeout(function () {
        settle(a);
      }, left);
    }
  }

  function skipNow() {
    var a = area();
    if (!a || !animating()) return false;
    a.classList.add("play-skipped");
    settle(a);
    return true;
  }

  function arm() {
    var a = area();
    if (!a) return;
    var controls = a.querySelector("[data-pace-control]");
    var select = a.querySelector("select[data-pace]");
    if (controls && select) {
      select.value = pace();
      controls.hidden = false;
    }
    var log = a.querySelector("[data-hand-log]");
    if (log) log.scrollTop = log.scrollHeight;
    startedAt = Date.now();
    schedule(a);
  }

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.matches || !select.matches("select[data-pace]")) return;
    if (PACES.indexOf(select.value) < 0) return;
    keepPace(select.value);
    var a = area();
    if (a && animating()) {
      if (select.value === "instant") {
        skipNow();
      } else {
        schedule(a);
      }
    }
  });

  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-skip]")) {
      event.preventDefault();
      skipNow();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    var a = area();
    if (!a) return;
    var key = event.key;
    if (key === "Escape" || key === "s" || key === "S") {
      if (skipNow()) event.preventDefault();
      return;
    }
    if (animating()) return;
    var go = a.querySelector("[data-continue]");
    if (go) {
      if (/^(Enter| |c|C)$/.test(key) && !control(event.target)) {
        event.preventDefault();
        go.click();
      }
      return;
    }
    var list = cards();
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
