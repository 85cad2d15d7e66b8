// `import { load } from "permc"` (or this file): the CommonJS module.
import permc from "./index.js";

export const { load, loadAsync, loadText, loadArtifact, watch, LivePolicy, tokens, Policy, PermcError } = permc;
export default permc;
