// `node --import <this file>`: registers ./node-ts-hooks.js (see there).
import { register } from "node:module";

register("./node-ts-hooks.js", import.meta.url);
