// `mari view --serve`: view.html and the report pages it links to, over HTTP on 127.0.0.1, for a
// browser that will not open file:// links. Only those files are served (GET, exact paths), under
// the folder that holds them all, so the page's relative links work the same as from disk.
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { dirname, relative, resolve, sep } from "node:path";
import { loopbackRequestProblem } from "./auth.js";

export interface ViewServer {
  url: string;
  close(): Promise<void>;
}

/** The deepest folder holding every file. */
function commonFolder(files: readonly string[]): string {
  let common = dirname(resolve(files[0]!)).split(sep);
  for (const file of files.slice(1)) {
    const parts = dirname(resolve(file)).split(sep);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  return common.join(sep) || sep;
}

function urlPath(root: string, file: string): string {
  return `/${relative(root, resolve(file)).split(sep).map(encodeURIComponent).join("/")}`;
}

/** Serves `page` (view.html) and `files` (the pages it links to) on 127.0.0.1:`port` (0: any free port). */
export async function startViewServer(page: string, files: readonly string[], port: number): Promise<ViewServer> {
  const root = commonFolder([page, ...files]);
  const served = new Map<string, string>();
  for (const file of [page, ...files]) served.set(urlPath(root, file), resolve(file));
  const home = urlPath(root, page);
  const server: Server = createServer((req, res) => {
    const problem = loopbackRequestProblem(req);
    if (problem !== undefined || req.method !== "GET") {
      res.writeHead(problem !== undefined ? 403 : 405, { "content-type": "text/plain" }).end(problem ?? "only GET");
      return;
    }
    const path = (req.url ?? "/").split("?")[0]!;
    if (path === "/") {
      res.writeHead(302, { location: home }).end();
      return;
    }
    const file = served.get(path);
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not a page of this view");
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { "content-type": "text/html; charset=utf-8", "x-content-type-options": "nosniff" }).end(body),
      () => res.writeHead(404, { "content-type": "text/plain" }).end("gone"),
    );
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolvePromise());
  });
  const address = server.address();
  const bound = typeof address === "object" && address !== null ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}${home}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
