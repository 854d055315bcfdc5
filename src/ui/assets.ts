import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The built page's files (scripts/build.mjs writes them to dist/ui/); nothing else is served from disk. */
export const ASSETS: Readonly<Record<string, string>> = {
  "/assets/app.js": "text/javascript; charset=utf-8",
  "/assets/app.css": "text/css; charset=utf-8",
  "/assets/diff.js": "text/javascript; charset=utf-8",
  "/assets/diff.css": "text/css; charset=utf-8",
};

/** Where dist/ui is: beside the running bundle (dist/cli.cjs), unless the caller says. */
export function defaultAssetsDir(): string {
  if (typeof __dirname === "string") return join(__dirname, "ui");
  return join(process.cwd(), "dist", "ui");
}

export class AssetCache {
  private readonly files = new Map<string, Buffer>();
  constructor(private readonly dir: string) {}

  get(path: string): Buffer {
    let b = this.files.get(path);
    if (!b) {
      b = readFileSync(join(this.dir, path.slice("/assets/".length)));
      this.files.set(path, b);
    }
    return b;
  }
}

/** The page's shell: the script fills it once the first state arrives. */
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Tandem board</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
<script src="/assets/app.js" defer></script>
</head>
<body><div id="app" aria-busy="true">Connecting…</div></body>
</html>
`;

/** The bench's baseline: the same server, the same guard, no script. */
export const BLANK_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>blank</title></head><body>
<p id="blank">blank</p></body></html>
`;
