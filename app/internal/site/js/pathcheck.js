// The static page's path check, inline in its head: see pathCheck in ../static.go.
(function () {
  "use strict";
  var want = document.currentScript.dataset.path;
  var at = location.pathname;
  if (at === want || at + "/" === want) {
    return;
  }
  window.backoffcalcWrongPath = want;
  var root = document.documentElement;
  root.hidden = true;
  document.addEventListener("DOMContentLoaded", function () {
    var dir = at.replace(/[^/]*$/, "");
    var prefix = dir.replace(/^\/+|\/+$/g, "");
    var built = want === "/" ? "make static, without PREFIX" : "make static PREFIX=" + want.replace(/^\/+|\/+$/g, "");
    function el(tag, parts) {
      var e = document.createElement(tag);
      e.append.apply(e, parts);
      return e;
    }
    function code(text) {
      return el("code", [text]);
    }
    var hidden = "the numbers written into this page are not shown: they are the default inputs', not this link's.";
    var said, fix;
    if (dir === want) {
      var a = el("a", [want]);
      a.href = want + location.search + location.hash;
      said = el("p", ["This copy of backoffcalc is served at ", code(want), ", but this page is ", code(at),
        ", where the calculator does not start, and ", hidden]);
      fix = el("p", ["Open the page at ", a, " instead."]);
    } else {
      said = el("p", ["This copy of backoffcalc was built to be served at ", code(want), " (", code(built),
        "), but this page is at ", code(at), ". Its files are looked for under ", code(want),
        ", so the calculator cannot start here, and ", hidden]);
      fix = el("p", ["To fix it, serve the folder at ", code(want), ", or build it again for where it is: ",
        code(prefix === "" ? "make static, without PREFIX" : "make static PREFIX=" + prefix), "."]);
    }
    var message = el("main", [el("h1", ["backoffcalc is not at the path it was built for"]), said, fix]);
    message.style.padding = "0 1rem"; // with app.css loaded, the body has no margin
    message.id = "wrong-path";
    message.setAttribute("role", "alert");
    document.body.replaceChildren(message);
    root.hidden = false;
  });
})();
