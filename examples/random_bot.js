#!/usr/bin/env node
// A peerboard bot in Node.js: spec/bot-protocol.md on stdin/stdout, a random legal action.
// Play it: peerboard selfplay asterix --players exec,greedy --exec "node examples/random_bot.js"
// It plays any game it is offered, in protocol version 2 when peerboard offers it (only a
// decision is answered) and version 1 otherwise.
const readline = require("readline");

const extra = Number(process.argv[2] || 0);  // a number on the command line varies the games
let seed = 1 + extra;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
let version = 1;
const reply = (message) => process.stdout.write(JSON.stringify(message) + "\n");
const notice = (message) => { if (version === 1) reply(message); };  // version 2: no reply

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  let message;
  try { message = JSON.parse(line); } catch (e) { return notice({ error: "that line is not JSON" }); }
  switch (message.type) {
    case "hello":
      version = (message.protocols || []).includes(2) ? 2 : 1;
      // any game offered; no board drawn as text in its views: it reads `legal` alone
      return reply({ protocol: version, name: "example-node", games: "*", text: false });
    case "decide": return reply({ action: message.legal[Math.floor(random() * message.legal.length)] });
    case "start": seed = ((message.seed || 0) + extra) % 2147483648; return notice({ ok: true });  // each game its own moves
    case "action": case "end": return notice({ ok: true });
    case "error": return process.stderr.write(`peerboard says: ${message.error}\n`);  // no reply
    default: return notice({ error: `unknown message type ${message.type}` });
  }
});
