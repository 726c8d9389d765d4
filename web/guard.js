// The page's HTML can come from a static host or the service worker's cache, which answer every
// link with the same page, rendered for another query. If the query this HTML was rendered for
// (data-for) is not the link's, mark the document so that app.css hides those numbers and shows
// the loading line until the WebAssembly has computed this link's table.
(function () {
  // A link typed on this page but not in its address yet when the page was left (app.js's
  // backoffcalcKeepTyped): Back or Forward to the page it was left on loads it, not the link
  // from before the edit. Before the check below, which then hides this HTML's numbers.
  try {
    var kept = JSON.parse(sessionStorage.getItem("backoffcalc-typed") || "null");
    var nav = performance.getEntriesByType("navigation")[0];
    if (kept && nav && nav.type === "back_forward" && kept.path === location.pathname && kept.from === location.search) {
      sessionStorage.removeItem("backoffcalc-typed");
      history.replaceState(history.state, "", kept.to + location.hash);
    }
  } catch (e) {
    // storage refused: the address stays the entry's
  }
  var s = document.currentScript;
  if (!s || s.dataset.for !== window.location.search) {
    document.documentElement.classList.add("stale-html");
  }
})();
