// A real HTTP server on 127.0.0.1 speaking the chat-completions protocol, with scripted failures.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequestInfo {
  /** The case id the prompt names (`Case id: "…"`). */
  caseId: string;
  /** How many requests for this case arrived before this one. */
  previousAttempts: number;
  /** Global 0-based request number. */
  index: number;
  body: any;
  headers: IncomingMessage["headers"];
}

export type ScriptedReply =
  | { status: number; body: string; headers?: Record<string, string> }
  | { content: string; delayMs?: number; after?: Promise<unknown> }
  | "hang";

export interface FakeChatServer {
  /** Most requests that were open at the same time. */
  readonly maxInFlight: number;
  baseUrl: string;
  port: number;
  requests: ChatRequestInfo[];
  close(): Promise<void>;
}

/** What a well-behaved model answers: deterministic per case id. */
export function honestAnswer(caseId: string): string {
  let h = 0;
  for (const ch of caseId) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  const positive = h % 2 === 1;
  return JSON.stringify({
    case_id: caseId,
    judgment: positive,
    evidence_sentence_ids: positive ? [1, 2] : [],
    reasoning: positive ? "[1] conflicts with [2]." : "Sentences [1] and [2] agree.",
  });
}

export function caseIdOf(body: any): string {
  const user = (body?.messages ?? []).find((m: any) => m.role === "user")?.content ?? "";
  const match = /^Case id: (".*")$/m.exec(user);
  return match ? JSON.parse(match[1]!) : "";
}

export function completionBody(content: string): string {
  return JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

export async function startFakeChatServer(
  script: (info: ChatRequestInfo) => ScriptedReply = (info) => ({ content: honestAnswer(info.caseId) }),
  port = 0,
): Promise<FakeChatServer> {
  const requests: ChatRequestInfo[] = [];
  const attemptsByCase = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      let body: any = null;
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400).end('{"error":{"message":"bad request body"}}');
        return;
      }
      const caseId = caseIdOf(body);
      const previousAttempts = attemptsByCase.get(caseId) ?? 0;
      attemptsByCase.set(caseId, previousAttempts + 1);
      const info: ChatRequestInfo = { caseId, previousAttempts, index: requests.length, body, headers: req.headers };
      requests.push(info);
      const reply = script(info);
      if (reply === "hang") return; // never answers: the client must time out
      if ("content" in reply) {
        const send = () => res.writeHead(200, { "content-type": "application/json" }).end(completionBody(reply.content));
        if (reply.after) void reply.after.then(send);
        else if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
        return;
      }
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    get maxInFlight() {
      return maxInFlight;
    },
    baseUrl: `http://127.0.0.1:${bound}/v1`,
    port: bound,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
