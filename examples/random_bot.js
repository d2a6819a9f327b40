#!/usr/bin/env node
// A peerboard bot in Node.js: spec/bot-protocol.md on stdin/stdout, a random legal action.
// Play it: peerboard selfplay asterix --players exec,greedy --exec "node examples/random_bot.js"
const readline = require("readline");

let seed = Number(process.argv[2] || 1);
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try { message = JSON.parse(line); } catch (e) { return reply({ error: "that line is not JSON" }); }
  switch (message.type) {
    case "hello": return reply({ protocol: 1, name: "example-node", games: "*" });  // any game offered
    case "decide": return reply({ action: message.legal[Math.floor(random() * message.legal.length)] });
    case "start": case "action": case "end": return reply({ ok: true });
    case "error": return process.stderr.write(`peerboard says: ${message.error}\n`);  // no reply
    default: return reply({ error: `unknown message type ${message.type}` });
  }
});
