// Live tables: the server sends each seat its own table as HTML over a WebSocket; a move is
// sent as {action, version}. Without a socket (or while it is down) the forms post as usual
// and the page reloads: nothing is lost, the table lives on the server.
(function () {
  "use strict";
  var root = document.querySelector("[data-live]");
  if (!root) return;
  var banner = root.querySelector("[data-live-banner]");
  var errorBox = root.querySelector("[data-live-error]");
  var socket = null;
  var open = false;
  var retry = 1000;

  function table() { return root.querySelector("#live-table"); }

  // The control a keyboard user is on keeps the focus when a frame replaces the table: it is
  // found again in the new table by its id, its action, or its first data- attribute.
  function focusKey(el) {
    if (el.id) return "#" + CSS.escape(el.id);
    var action = el.getAttribute("data-action");
    if (action) return '[data-action="' + CSS.escape(action) + '"]';
    for (var i = 0; i < el.attributes.length; i++) {
      var name = el.attributes[i].name;
      if (name.indexOf("data-") === 0) return "[" + name + "]";
    }
    return null;
  }

  // A wait the table shows ("you may hand the seat to a bot in 40 s") ends with no change
  // to announce: the page asks for the table again when it does.
  var refreshTimer = null;
  function scheduleRefresh() {
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = null;
    var waiting = root.querySelector("[data-refresh-in]");
    if (!waiting) return;
    var seconds = Number(waiting.getAttribute("data-refresh-in"));
    refreshTimer = setTimeout(refresh, (seconds + 1) * 1000);
  }

  function refresh() {
    if (open) {
      socket.send(JSON.stringify({ refresh: true }));
      return;
    }
    fetch(root.getAttribute("data-partial"), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) swap(html); });
  }

  function swap(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#live-table");
    var old = table();
    // The table's version only grows: a late frame (a socket reopened while the next change was
    // on its way) never turns the table back.
    if (fresh && old && Number(fresh.getAttribute("data-version")) < Number(old.getAttribute("data-version"))) return;
    if (fresh && old) {
      // A frame is rendered without a request, so its forms carry no CSRF token: they take
      // the page's, for the form posts used while the socket is down.
      var token = document.querySelector('input[name="csrfmiddlewaretoken"]');
      if (token) {
        fresh.querySelectorAll('form[method="post"]').forEach(function (form) {
          if (!form.querySelector('input[name="csrfmiddlewaretoken"]')) form.prepend(token.cloneNode());
        });
      }
      var focused = old.contains(document.activeElement) ? focusKey(document.activeElement) : null;
      // The folded hand log (a phone's) stays open (or closed) as the reader left it.
      var log = old.querySelector("details[data-hand-log-fold]");
      var freshLog = fresh.querySelector("details[data-hand-log-fold]");
      if (log && freshLog) freshLog.open = log.open;
      old.replaceWith(fresh);
      if (focused) {
        var again = fresh.querySelector(focused);
        if (again) again.focus();
      }
      scheduleRefresh();
    }
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + location.host + root.getAttribute("data-socket"));
    } catch (e) {
      paused();
      return;
    }
    socket.onopen = function () {
      open = true;
      retry = 1000;
      banner.hidden = true;
      root.setAttribute("data-socket-open", "1");
    };
    socket.onmessage = function (event) {
      var data = JSON.parse(event.data);
      if (data.html) {
        errorBox.hidden = true;
        swap(data.html);
      }
      if (data.error) {
        errorBox.textContent = data.error;
        errorBox.hidden = false;
      }
    };
    socket.onclose = function (event) {
      open = false;
      root.removeAttribute("data-socket-open");
      paused();
      // 4404: not (or no longer) this user's table to see; 4429: too many tabs open here.
      // Neither gets better by trying again; anything else (1012 a server restarting, 1013
      // the live updates' server down, a dropped network) does: try again, less and less
      // often.
      if (event.code === 4404 || event.code === 4429) return;
      setTimeout(connect, event.code === 1012 ? 250 : retry);
      retry = Math.min(retry * 2, 15000);
    };
  }

  function paused() { banner.hidden = false; }

  root.addEventListener("click", function (event) {
    var button = event.target.closest("[data-action]");
    if (!button || !open) return; // no socket: the form posts and the page reloads
    var t = table();
    event.preventDefault();
    socket.send(JSON.stringify({ action: button.getAttribute("data-action"), version: Number(t.getAttribute("data-version")) }));
  });

  scheduleRefresh();
  connect();
})();
