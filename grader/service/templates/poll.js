// The student's page while a hand-in waits or is graded: ask the page's status
// every few seconds, and reload once nothing waits or an attempt's state changed.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || live.dataset.pending !== "yes") { return; }
  var first = null;
  function look() {
    fetch(live.dataset.status, {cache: "no-store", credentials: "same-origin"})
      .then(function (response) { return response.json(); })
      .then(function (now) {
        var states = JSON.stringify(now.attempts);
        if (first === null) { first = states; }
        // Done already (perhaps before the first look), or changed since: show it.
        if (!now.pending || states !== first) { window.location.reload(); return; }
        window.setTimeout(look, 3000);
      })
      .catch(function () { window.setTimeout(look, 10000); });
  }
  look();
}());
