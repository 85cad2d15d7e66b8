// `import { load } from "permc"` (or this file): the CommonJS module.
import permc from "./index.js";

export const { load, loadArtifact, tokens, Policy } = permc;
export default permc;
