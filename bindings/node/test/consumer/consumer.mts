// A TypeScript program that uses the installed package, type-checked with
// `tsc --strict` by test/package.sh and then run: the types must accept
// what the addon takes and refuse what it refuses.
import { load, PermcError, Policy, type Decision, type ErrorCode, type LoadedPolicy, type Reason, type Request } from "permc";

declare const process: { argv: string[] };
const [permissions, autonomy, scope] = process.argv.slice(2);

const policy: LoadedPolicy = load({ permissions, autonomy });
const request: Request = {
  action: { type: "terminal", command: "pnpm test", agent: "dev-web" },
  context: { role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: scope },
};
const decision: Decision = policy.decide(request);
const reason: Reason = decision.reason;
const other: Request = { action: { type: "git_push", agent: "dev-web" }, context: { role: "maintainer" } };

// @ts-expect-error a terminal request without context.projectScopeRoot
const noScope: Request = { action: { type: "terminal", command: "ls" }, context: { role: "developer" } };
// @ts-expect-error not an action type of SPEC §1
const teleport: Request = { action: { type: "teleport" }, context: { role: "owner" } };
// @ts-expect-error not a role
const king: Request = { action: { type: "spend" }, context: { role: "king" } };
// @ts-expect-error a decision's policy is one of three
const maybe: Decision["policy"] = "maybe";

let code: ErrorCode | "none" = "none";
try {
  policy.decide(noScope);
} catch (e) {
  if (e instanceof PermcError) code = e.code;
}
console.log(JSON.stringify({
  decision,
  reason,
  other: policy.decide(other).policy,
  code,
  isPolicy: policy instanceof Policy,
  unused: [teleport, king, maybe].length,
}));
