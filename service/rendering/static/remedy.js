// Progressive enhancement of the troubleshooter: the form works without JavaScript (a GET that renders the
// steps); with it, the answer replaces the results in place and the address keeps the query.
(function () {
  "use strict";
  var form = document.querySelector("form.ts");
  if (!form || !window.fetch || !window.DOMParser) { return; }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var params = new URLSearchParams(new FormData(form));
    var url = form.action + "?" + params.toString();
    fetch(url, { headers: { "Accept": "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("results");
        var current = document.getElementById("results");
        if (doc.querySelector(".form-error") || !fresh || !current) {
          window.location.assign(url);  // field errors: the full page shows them next to the fields
        } else {
          current.replaceWith(fresh);
          history.pushState(null, "", url);
          var title = fresh.querySelector("h2");
          if (title) { title.setAttribute("tabindex", "-1"); title.focus(); }
        }
      })
      .catch(function () { window.location.assign(url); });
  });
})();
