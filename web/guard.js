// The page's HTML can come from a static host or the service worker's cache, which answer every
// link with the same page, rendered for another query. If the query this HTML was rendered for
// (data-for) is not the link's, mark the document so that app.css hides those numbers and shows
// the loading line until the WebAssembly has computed this link's table.
(function () {
  var s = document.currentScript;
  if (!s || s.dataset.for !== window.location.search) {
    document.documentElement.classList.add("stale-html");
  }
})();
