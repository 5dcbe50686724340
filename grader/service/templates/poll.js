// The student's page while a hand-in waits or is graded: ask the page's status, then
// ask again naming what was seen (the service answers once something changed, or
// after a few seconds), and reload once nothing waits or an attempt's state changed;
// but not under someone filling in a form: then say so, with a button to show it.
// The gradebook watches (data-watch): it reloads whenever its jobs change, waiting or not.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  var watch = live.dataset.watch === "yes";
  if (live.dataset.pending !== "yes" && !watch) { return; }
  var first = null;
  var seen = "";
  function typing() {
    var at = document.activeElement;
    return at !== null && /^(INPUT|TEXTAREA|SELECT)$/.test(at.tagName);
  }
  function ready() {
    if (!typing()) { window.location.reload(); return; }
    live.textContent = live.dataset.ready || "Your report is ready. ";
    var show = document.createElement("button");
    show.type = "button";
    show.id = "show-report";
    show.textContent = "Show it (reloads the page)";
    show.addEventListener("click", function () { window.location.reload(); });
    live.appendChild(show);
  }
  function look() {
    var since = seen ? "?since=" + encodeURIComponent(seen) : "";
    fetch(live.dataset.status + since, {cache: "no-store", credentials: "same-origin"})
      .then(function (response) { return response.json(); })
      .then(function (now) {
        var states = JSON.stringify(now.attempts);
        if (first === null) { first = states; seen = now.seen || ""; }
        // Done already (perhaps before the first look), or changed since: show it.
        if ((!now.pending && !watch) || states !== first) { ready(); return; }
        // The service waited for a change: ask again at once (a pause, in case not).
        window.setTimeout(look, 250);
      })
      .catch(function () { window.setTimeout(look, 10000); });
  }
  look();
}());
