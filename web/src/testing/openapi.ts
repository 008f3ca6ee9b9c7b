//! docs/openapi.json as a validator for the MSW handlers: every request a handler receives and every
//! answer it gives in a test is checked against the document (setup.ts fails the test otherwise), so
//! the mock cannot drift from the API's code. Node only (Vitest); `npm run dev:mock` does not check.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

type Media = { content?: Record<string, { schema?: object }> };
type Operation = { requestBody?: Media & { required?: boolean }; responses: Record<string, Media> };
type Doc = { paths: Record<string, Record<string, Operation>>; components: object };

const here = dirname(fileURLToPath(import.meta.url));
export const doc = JSON.parse(readFileSync(resolve(here, "../../../docs/openapi.json"), "utf8")) as Doc;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
ajv.addSchema({ $id: "openapi.json", components: doc.components });

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === "object") {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `openapi.json${v}` : rewriteRefs(v),
      ]),
    );
  }
  return schema;
}

const compiled = new Map<object, ValidateFunction>();
function validate(schema: object, body: unknown): string | null {
  let check = compiled.get(schema);
  if (!check) compiled.set(schema, (check = ajv.compile(rewriteRefs(schema) as object)));
  return check(body) ? null : ajv.errorsText(check.errors);
}

export const operation = (method: string, path: string): Operation | undefined => doc.paths[path]?.[method.toLowerCase()];

const parse = (text: string): unknown => (text ? (JSON.parse(text) as unknown) : undefined);

/** `POST /api/auth/token` names one body schema for its four grants; its description names the others by `grant_type`. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const TOKEN_GRANTS: Record<string, object> = { password: ref("Credentials"), refresh_token: ref("RefreshBody") };
Object.assign(TOKEN_GRANTS, { authorization_code: ref("AuthorizationCodeGrantBody") });
TOKEN_GRANTS["urn:ietf:params:oauth:grant-type:device_code"] = ref("DeviceCodeGrantBody");
Object.assign(TOKEN_GRANTS, { mfa: ref("MfaGrantBody"), passkey: ref("PasskeyGrantBody") });
function bodySchema(op: Operation, path: string, url: string): object | undefined {
  if (path !== "/api/auth/token") return op.requestBody?.content?.["application/json"]?.schema;
  return TOKEN_GRANTS[new URL(url).searchParams.get("grant_type") ?? ""];
}

/** What is wrong with a JSON request body sent to `url`, `method path` (OpenAPI path), or null. */
export function requestProblem(method: string, path: string, url: string, text: string): string | null {
  const key = `${method.toLowerCase()} ${path}`;
  const op = operation(method, path);
  if (!op) return `${key} is not in docs/openapi.json`;
  const schema = bodySchema(op, path, url);
  if (!schema) return null;
  // An empty body stands for `{}` where the API reads one (`{return_url?}`: "the body may be empty").
  if (!text) return !op.requestBody?.required || validate(schema, {}) === null ? null : `${key} was sent no body, which it needs`;
  let body: unknown;
  try {
    body = parse(text);
  } catch {
    return `${key} was sent a body that is not JSON`;
  }
  const problem = validate(schema, body);
  return problem && `${key} request: ${problem} in ${text}`;
}

/** What is wrong with the answer `status`, `text` to `method path` (OpenAPI path), or null. */
export function responseProblem(method: string, path: string, status: number, text: string): string | null {
  const key = `${method.toLowerCase()} ${path}`;
  const response = operation(method, path)?.responses[String(status)];
  if (!response) return `${key} answered ${status}, which the document does not list`;
  const schema = response.content?.["application/json"]?.schema;
  if (!schema) return text ? `${key} ${status} has a body the document does not describe` : null;
  const problem = validate(schema, parse(text));
  return problem && `${key} ${status}: ${problem} in ${text}`;
}

/** The problems seen since the last test (setup.ts fails a test that leaves any). */
export const contractCheck = { problems: [] as string[] };

/** Checks one exchange of a handler with `path` (an OpenAPI path); the request and response are copies. */
export async function checkExchange(method: string, path: string, request: Request, response: Response | undefined) {
  const problem = requestProblem(method, path, request.url, await request.text());
  if (problem) contractCheck.problems.push(problem);
  if (response) {
    const answer = responseProblem(method, path, response.status, await response.text());
    if (answer) contractCheck.problems.push(answer);
  }
}
