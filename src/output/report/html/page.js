// a2alint HTML report: filters by rule and severity, and a search box. Optional: the page
// is complete without it. It reads the page and touches only class names and `open`.
(function () {
  "use strict";
  var filters = document.getElementById("filters");
  if (!filters) return;
  var findings = Array.prototype.slice.call(document.querySelectorAll("article.finding"));
  var files = Array.prototype.slice.call(document.querySelectorAll("section.file"));
  var ruleSelect = document.getElementById("filter-rule");
  var search = document.getElementById("filter-search");
  var shown = document.getElementById("filter-shown");
  var boxes = Array.prototype.slice.call(filters.querySelectorAll("input[data-severity]"));
  var rules = {};
  findings.forEach(function (f) { rules[f.getAttribute("data-rule")] = true; });
  Object.keys(rules).sort().forEach(function (rule) {
    var option = document.createElement("option");
    option.value = rule;
    option.textContent = rule;
    ruleSelect.appendChild(option);
  });
  function apply() {
    var rule = ruleSelect.value;
    var query = search.value.trim().toLowerCase();
    var severities = {};
    boxes.forEach(function (b) { severities[b.getAttribute("data-severity")] = b.checked; });
    var narrowed = rule !== "" || query !== "" || boxes.some(function (b) { return !b.checked; });
    var count = 0;
    findings.forEach(function (f) {
      var ok = severities[f.getAttribute("data-severity")] &&
        (rule === "" || f.getAttribute("data-rule") === rule) &&
        (query === "" || f.textContent.toLowerCase().indexOf(query) >= 0);
      f.classList.toggle("hidden", !ok);
      if (ok) count++;
    });
    files.forEach(function (file) {
      var visible = file.querySelector("article.finding:not(.hidden)") !== null;
      var exchanges = file.querySelectorAll("details.exchange");
      var matched = false;
      for (var i = 0; i < exchanges.length; i++) {
        var hit = query !== "" && exchanges[i].textContent.toLowerCase().indexOf(query) >= 0;
        exchanges[i].classList.toggle("hidden", query !== "" && !hit && rule === "");
        matched = matched || hit;
      }
      file.classList.toggle("hidden", narrowed && !visible && !(matched && rule === ""));
    });
    shown.textContent = narrowed ? count + " of " + findings.length + " findings shown" : "";
  }
  ruleSelect.addEventListener("change", apply);
  search.addEventListener("input", apply);
  boxes.forEach(function (b) { b.addEventListener("change", apply); });
  // Following a link into a collapsed section opens it.
  function reveal() {
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", reveal);
  filters.hidden = false;
  reveal();
})();
