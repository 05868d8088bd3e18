// CommonJS on Node >= 20.19: require() of the ES modules.
const zk = require("zarrkit");
console.log(JSON.stringify({ openStore: typeof zk.openStore, FileSystemStore: typeof zk.FileSystemStore }));
