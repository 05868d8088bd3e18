#!/usr/bin/env node
// Runs the TypeScript sources with the workspace's Node hooks (the tool is private and never built).
import "../../config/node-ts-register.js";

const { run } = await import("../src/main.ts");
process.exitCode = run(
  process.argv.slice(2),
  (text) => console.log(text),
  (text) => console.error(text),
);
