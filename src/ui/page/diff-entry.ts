/**
 * The diff bundle (dist/ui/diff.js): diff2html draws a unified diff side by side and highlight.js
 * colours the code. Only the common languages are registered, to keep the file small.
 */
import { ColorSchemeType } from "diff2html/lib-esm/types.js";
import { Diff2HtmlUI } from "diff2html/lib-esm/ui/js/diff2html-ui-base.js";
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import "./diff.css";

const LANGUAGES = { bash, css, go, javascript, json, markdown, python, rust, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

window.tandemDiff = {
  render(target, diff) {
    const ui = new Diff2HtmlUI(
      target,
      diff,
      {
        outputFormat: "side-by-side",
        drawFileList: true,
        matching: "lines",
        highlight: true,
        synchronisedScroll: true,
        colorScheme: ColorSchemeType.AUTO,
      },
      hljs,
    );
    ui.draw();
    ui.highlightCode();
  },
};
