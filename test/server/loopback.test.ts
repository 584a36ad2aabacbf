// Which --host values `mari serve` treats as loopback (and so serves without a token): whole host
// names only. A name that merely starts like a loopback address is a remote host.
import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../src/server/auth.js";

describe("isLoopbackHost", () => {
  it.each(["127.0.0.1", "127.0.0.2", "127.255.255.254", "localhost", "::1"])("%s is loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each([
    "127.0.0.1.example",
    "127.0.0.1.nip.io",
    "evil127.0.0.1",
    "x.127.0.0.1",
    "127.0.0",
    "127.0.0.1:8080",
    "localhost.example",
    "mylocalhost",
    "0.0.0.0",
    "::",
    "::1.example",
    "128.0.0.1",
    "",
  ])("%s is not loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
