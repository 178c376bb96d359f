// mafiahost: light progressive enhancement. The pages work without it.
(function () {
  "use strict";
  // copy buttons
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.copy");
    if (!b) return;
    var box = b.hasAttribute("data-copy-prev") ? b.previousElementSibling
      : b.parentElement.nextElementSibling;
    if (!box) return;
    var text = box.value;
    var done = function () { var old = b.textContent; b.textContent = "✓"; setTimeout(function () { b.textContent = old; }, 1200); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { box.select(); document.execCommand("copy"); done(); });
    } else { box.select(); document.execCommand("copy"); done(); }
  });
  // confirmations
  document.addEventListener("submit", function (ev) {
    var f = ev.target;
    var q = f.getAttribute("data-confirm");
    if (q && !window.confirm(q)) { ev.preventDefault(); return; }
    var btn = f.querySelector("button[type=submit]");
    if (btn) { setTimeout(function () { btn.disabled = true; }, 0); }
  });
  // live updates: the page fetches itself again when the server says something changed
  var url = document.body.getAttribute("data-live");
  if (!url || !window.EventSource) return;
  var busy = false;
  function refresh() {
    if (busy) return;
    var active = document.activeElement;
    if (active && (active.tagName === "SELECT" || active.tagName === "INPUT" || active.tagName === "TEXTAREA")) {
      setTimeout(refresh, 1500); return;
    }
    busy = true;
    fetch(location.pathname + location.search, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { if (!r.ok) { location.reload(); throw new Error("gone"); } return r.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("main");
        if (fresh) {
          // the answer to the player's own last request (shown once, above the page) stays
          var said = document.querySelector("#main > p.flash[role=status]");
          if (said && !fresh.querySelector(":scope > p.flash[role=status]")) {
            fresh.insertBefore(said, fresh.firstChild);
          }
          document.getElementById("main").replaceWith(fresh);
        }
        document.body.setAttribute("data-updated", String(Date.now()));
      })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  var es = new EventSource(url);
  es.addEventListener("update", refresh);
  es.addEventListener("gone", function () { es.close(); location.reload(); });
})();
