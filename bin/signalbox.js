#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node >= 22.12 strips the types itself.
import '../src/server/cli/main.ts';
