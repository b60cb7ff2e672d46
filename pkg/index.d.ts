// TypeScript declarations for the tfgraph package (index.js).
//
// The data types mirror the Rust structs that produce them, field for field: diagnostics from
// src/diag.rs (Terraform's JSON shape), the configuration from src/config/model.rs. Field names
// stay in Terraform's snake_case; `Option<T>` arrives as `T | null`, except the optional
// diagnostic fields, which are left out when absent (as in Terraform's JSON).

// ---------------------------------------------------------------------------------------------
// Diagnostics (src/diag.rs)

/** How bad a diagnostic is. */
export type Severity = "error" | "warning";

/**
 * One position in a source file: 1-based line, 1-based column counted in Unicode scalar values
 * (not UTF-16 code units), and 0-based byte offset into the file's UTF-8 text.
 */
export interface Pos {
  line: number;
  column: number;
  byte: number;
}

/** A span of a source file: Terraform's `range` object. */
export interface SourceRange {
  filename: string;
  start: Pos;
  end: Pos;
}

/** Any JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The source line a diagnostic points at: Terraform's `snippet` object. */
export interface Snippet {
  /** The enclosing block header (`resource "aws_instance" "web"`), when known. */
  context: string | null;
  /** The full source line(s) the range starts on. */
  code: string;
  start_line: number;
  /** Byte offsets of the highlighted part within `code`. */
  highlight_start_offset: number;
  highlight_end_offset: number;
  /** Expression values; always empty here (nothing is evaluated while loading). */
  values: JsonValue[];
}

/** One problem found in the user's input, in Terraform's JSON shape. */
export interface Diagnostic {
  severity: Severity;
  summary: string;
  detail: string;
  address?: string;
  range?: SourceRange;
  snippet?: Snippet;
}

// ---------------------------------------------------------------------------------------------
// The configuration (src/config/model.rs)

/** A whole configuration: the root module and, through its calls, every module below it. */
export interface Config {
  root: Module;
}

/** Call names from the root (`["net", "subnets"]`); empty for the root module. */
export type ModulePath = string[];

/** One module: a folder of `.tf` / `.tf.json` files. */
export interface Module {
  path: ModulePath;
  /** `module.net.module.subnets`; empty for the root module. */
  address: string;
  /** The folder within the given files (`""` for the top level, `modules/net`). */
  dir: string;
  /** The files loaded for this module, in load order (sorted by name, as Terraform does). */
  files: string[];
  resources: Resource[];
  providers: ProviderConfig[];
  module_calls: ModuleCall[];
  variables: Variable[];
  locals: Local[];
  outputs: Output[];
  required_providers: RequiredProvider[];
  required_version: string | null;
  moved: Moved[];
  imports: Import[];
  removed: Removed[];
  checks: Check[];
}

/** An expression as written, with the references found in it. Nothing is evaluated. */
export interface Expr {
  /** The expression's source text. */
  source: string;
  range: SourceRange;
  references: Reference[];
}

/** The kind of object a reference points at. */
export type ReferenceKind = "resource" | "data" | "ephemeral" | "module" | "module_output" | "variable" | "local";

/** One reference from an expression to an object that can be a graph node. */
export interface Reference {
  /** What is referenced, as Terraform prints it: `aws_instance.web`, `module.net.vpc_id`. */
  subject: string;
  kind: ReferenceKind;
  /** The static traversal as written, up to the first dynamic step: `aws_instance.web[0].id`. */
  traversal: string;
  /** Where the subject part of the traversal is written. */
  range: SourceRange;
  /**
   * Where in the object it was found: `ami`, `count`, `depends_on`,
   * `lifecycle.replace_triggered_by`, `network_interface.subnet_id`, `connection.host`, ...
   */
  in: string;
}

/** Managed resources, data sources and ephemeral resources share one shape. */
export type ResourceMode = "managed" | "data" | "ephemeral";

/** A `resource`, `data` or `ephemeral` block. */
export interface Resource {
  /** Absolute address of the block: `aws_instance.web`, `module.net.data.aws_ami.u`. */
  address: string;
  mode: ResourceMode;
  type: string;
  name: string;
  provider: ProviderRef;
  count: Expr | null;
  for_each: Expr | null;
  depends_on: Reference[];
  lifecycle: Lifecycle;
  provisioners: Provisioner[];
  connection: BlockRefs | null;
  /**
   * Every reference Terraform's `NodeAbstractResource.References()` would list. Destroy-time
   * provisioners' references are only on their `Provisioner`.
   */
  references: Reference[];
  /** The block header: `resource "aws_instance" "web"`. */
  range: SourceRange;
}

/** Which provider configuration a resource (or module-passed provider) uses. */
export interface ProviderRef {
  /** The provider's local name in this module (`aws`). */
  local_name: string;
  alias: string | null;
  /** Fully qualified source address: `registry.terraform.io/hashicorp/aws`. */
  fqn: string;
  /** True when there was no `provider` argument and the name came from the type prefix. */
  implied: boolean;
  /** The `provider = ...` argument, when written. */
  range: SourceRange | null;
}

/** `ignore_changes`: the keyword `all`, or a list of attribute paths as written (`[]` when absent). */
export type IgnoreChanges = "all" | string[];

/** The `lifecycle` block of a resource. */
export interface Lifecycle {
  create_before_destroy: boolean | null;
  prevent_destroy: boolean | null;
  ignore_changes: IgnoreChanges;
  replace_triggered_by: Expr[];
  preconditions: Condition[];
  postconditions: Condition[];
}

/** A `precondition`, `postcondition`, variable `validation` or check `assert` block. */
export interface Condition {
  condition: Expr;
  error_message: Expr | null;
  range: SourceRange;
}

/** When a provisioner runs. */
export type ProvisionerWhen = "create" | "destroy";

/** A `provisioner` block. */
export interface Provisioner {
  type: string;
  when: ProvisionerWhen;
  /** `fail` (the default) or `continue`. */
  on_failure: string;
  connection: BlockRefs | null;
  /** References in the provisioner's body and its connection block. */
  references: Reference[];
  range: SourceRange;
}

/** A nested block kept only for its references (`connection`). */
export interface BlockRefs {
  references: Reference[];
  range: SourceRange;
}

/** A `provider` block. */
export interface ProviderConfig {
  /** The local name: `provider "aws"` gives `aws`. */
  name: string;
  alias: string | null;
  fqn: string;
  /** `provider["registry.terraform.io/hashicorp/aws"].west`, prefixed with the module address. */
  address: string;
  references: Reference[];
  /**
   * Nothing but `alias` and `version` in the block: in a child module, a proxy that a
   * configuration passed in by the caller replaces (a non-empty one cannot be overridden).
   */
  empty: boolean;
  range: SourceRange;
}

/** Where a module call's source points. */
export type ModuleSourceKind =
  | "local"
  | "registry"
  | "git"
  | "http"
  | "s3"
  | "gcs"
  | "mercurial"
  | "github"
  | "bitbucket"
  | "other";

/** A `module` block. */
export interface ModuleCall {
  name: string;
  /** Absolute address of the call: `module.net`, `module.net.module.subnets`. */
  address: string;
  source: string;
  source_kind: ModuleSourceKind;
  version: string | null;
  count: Expr | null;
  for_each: Expr | null;
  depends_on: Reference[];
  /** `providers = { aws.bar = aws.foo }`. */
  providers: PassedProvider[];
  /** Every other argument: the child's input variables. */
  arguments: Argument[];
  /** What the call's expansion node references: depends_on, count and for_each. */
  references: Reference[];
  /** The loaded child module; `null` when the source is not local (an opaque call). */
  module: Module | null;
  range: SourceRange;
}

/** One entry of a module call's `providers` map. */
export interface PassedProvider {
  /** The name the child uses (`aws.bar`). */
  in_child: string;
  /** The parent's configuration passed in (`aws.foo`). */
  in_parent: string;
  range: SourceRange;
}

/** A module call argument (an input variable of the child). */
export interface Argument {
  name: string;
  expr: Expr;
}

/** A `variable` block. */
export interface Variable {
  name: string;
  /** The type constraint as written (`list(string)`). */
  type: string | null;
  default: Expr | null;
  description: string | null;
  sensitive: boolean;
  nullable: boolean;
  ephemeral: boolean;
  validations: Condition[];
  range: SourceRange;
}

/** One entry of a `locals` block. */
export interface Local {
  name: string;
  expr: Expr;
  range: SourceRange;
}

/** An `output` block. */
export interface Output {
  name: string;
  value: Expr;
  depends_on: Reference[];
  sensitive: boolean;
  ephemeral: boolean;
  description: string | null;
  preconditions: Condition[];
  /** value, depends_on and precondition references together. */
  references: Reference[];
  range: SourceRange;
}

/** One entry of `terraform { required_providers { ... } }`. */
export interface RequiredProvider {
  name: string;
  source: string | null;
  fqn: string;
  version: string | null;
  configuration_aliases: string[];
  range: SourceRange;
}

/** A `moved` block. */
export interface Moved {
  from: string;
  to: string;
  range: SourceRange;
}

/** An `import` block. */
export interface Import {
  /** The address imported to, as written (`aws_instance.web[each.key]`: its index is evaluated per instance). */
  to: string;
  /** Where `to` is written. */
  to_range: SourceRange;
  id: Expr | null;
  for_each: Expr | null;
  provider: string | null;
  references: Reference[];
  range: SourceRange;
}

/** A `removed` block. */
export interface Removed {
  from: string;
  /** `lifecycle { destroy = ... }`; Terraform's default is true. */
  destroy: boolean;
  provisioners: Provisioner[];
  range: SourceRange;
}

/** A `check` block. */
export interface Check {
  name: string;
  /** The scoped `data` block, if any. */
  data: Resource | null;
  asserts: Condition[];
  references: Reference[];
  range: SourceRange;
}

// ---------------------------------------------------------------------------------------------
// The API (api.js; "tfgraph" loads the WebAssembly module on import, "tfgraph/init" leaves it
// to `await init()`)

/** The package version (also the Rust crate's version); "" until the module is loaded. */
export declare const version: string;

/** What `init` and `initSync` load the WebAssembly module from. */
export type WasmSource = URL | string | Response | PromiseLike<Response> | BufferSource | WebAssembly.Module;

/**
 * Loads the WebAssembly module, once (later calls return the first call's promise). By default
 * from the `.wasm` file beside the package's JS, which bundlers emit as an asset; a file: URL is
 * read from disk. Needed only with "tfgraph/init": "tfgraph" has loaded it on import.
 */
export declare function init(source?: WasmSource): Promise<void>;

/** Loads the WebAssembly module synchronously from its bytes or a compiled module. */
export declare function initSync(source: BufferSource | WebAssembly.Module): void;

/** Input files: slash-separated relative paths (`main.tf`, `modules/net/main.tf`) to contents. */
export type Files = Record<string, string>;

/** Options of `loadConfig`. */
export interface LoadOptions {
  /** The root module's folder within the files; the top level (`""`) by default. */
  root?: string;
  /** Kept with the configuration for `evaluate`, `buildGraph` and `plan` (see `PlanOptions`). */
  /**
   * The working directory Terraform would run in (the root module's folder): an absolute,
   * slash-separated path, what `path.cwd` is and `abspath` joins relative paths to; absolute
   * paths under it read the files given. Default: the directory `readConfigDir` read the files
   * from, joined with `root`; else none (`path.cwd` is `"."`, `abspath("x")` unknown).
   */
  cwd?: string;
}

/** What `loadConfig` returns: the configuration, and its warnings (never errors: those throw). */
export interface LoadedConfig extends Config {
  diagnostics: Diagnostic[];
}

/**
 * Thrown when the user's input has errors. The message lists the first errors as
 * `file:line:col: summary`.
 */
export declare class TfgraphError extends Error {
  constructor(diagnostics: Diagnostic[], config?: Config | null);
  readonly name: "TfgraphError";
  /** Every diagnostic, errors and warnings, in Terraform's JSON shape. */
  diagnostics: Diagnostic[];
  /** What could be loaded despite the errors (from `loadConfig`), or `null`. */
  config: Config | null;
  /**
   * When an `apply` stopped because the WebAssembly module ran out of memory or trapped: the
   * state the apply had written, as `onState` last received it (absent without `onState` calls).
   */
  state?: StateV4;
  /** `state` as the engine's text (numbers exact). */
  stateText?: string;
}

/**
 * The WebAssembly module's memory now, in bytes. Wasm memory grows and never shrinks; after a
 * call took it past 256 MiB, the package starts a fresh instance at the next call once no
 * Graph or Plan made before is reachable.
 */
export declare function memoryBytes(): number;

/**
 * How far a plan may expand before it stops with an error at the `count` / `for_each`
 * argument ("Too many instances"): chosen from what a wasm32 module's 4 GiB hold (about 3 KB
 * per planned instance). Raise them only for configurations that need it: past memory, the
 * call rejects with an "Out of memory" TfgraphError (the package then starts afresh). Each is
 * a whole number >= 1; past 4,294,967,295 it counts as that (the module's memory is 32-bit).
 */
export interface PlanLimits {
  /** Resource and data source instances in one plan, all modules together (default 500,000). */
  instances?: number;
  /** Instances of module calls with count / for_each, all levels together (default 100,000). */
  moduleInstances?: number;
  /**
   * Collection elements one expression may make, nested ones counted at each level (default
   * 16,777,216: about 512 MiB of values); past it, "Expression result too large" or the
   * function's error.
   */
  elements?: number;
  /** String bytes one expression may make (default 268,435,456: 256 MiB). */
  bytes?: number;
}

/**
 * Loads a Terraform configuration from in-memory files. Local module sources (`./x`, `../x`)
 * are followed within `files`; other sources stay opaque calls, with a warning.
 *
 * `files` is read lazily: its keys up front, a file's contents only when its folder is loaded
 * (the root module's, those of the modules it calls, and the module manifest), so passing a
 * whole repository costs what the loaded modules cost.
 *
 * @returns the configuration, with warnings in `diagnostics`.
 * @throws {TfgraphError} when the configuration has an error (syntax, invalid blocks, ...).
 * @throws {TypeError} when `files` is not an object, a file that is read is not a string, or
 *   `options` is malformed.
 */
export declare function loadConfig(files: Files, options?: LoadOptions): LoadedConfig;

// ---------------------------------------------------------------------------------------------
// Graphs (src/graph)

/** Which graph to build: Terraform's operations that have a graph builder. */
export type Operation = "plan" | "destroy" | "apply" | "validate";

/** A Terraform state v4 file's JSON (`terraform.tfstate`). Only what graphs need is read. */
export interface StateV4 {
  version: 4;
  resources?: JsonValue[];
  [key: string]: JsonValue | undefined;
}

/**
 * Planned changes for the apply graph: instance address to Terraform's action list
 * (`{"aws_instance.web[0]": ["delete", "create"]}`; a deposed object is `"addr (deposed KEY)"`),
 * or a `terraform show -json` plan (its `resource_changes` are read).
 */
export type Changes = Record<string, ActionList> | { resource_changes: JsonValue[]; [key: string]: JsonValue };
export type ActionList =
  | ["no-op"] | ["create"] | ["read"] | ["update"] | ["delete", "create"] | ["create", "delete"] | ["delete"]
  | ["forget"] | ["create", "forget"];

/**
 * The mode of the plan a graph is built for (Terraform's `plans.Mode`). `"destroy"` with
 * operation "apply" is the apply graph of a destroy plan (Terraform's `walkDestroy`); with
 * "plan" it is the same as operation "destroy". Not read from `changes`: `terraform show -json`
 * does not print it.
 */
export type PlanMode = "normal" | "destroy";

export interface BuildOptions extends LoadOptions {
  operation?: Operation;
  /** The plan's mode (default "normal"); invalid with "validate". */
  mode?: PlanMode;
  /** The prior state, or its JSON text (`terraform.tfstate` as read from disk). */
  state?: StateV4 | string;
  /** The planned changes, or their JSON text. */
  changes?: Changes | string;
  /** Terraform's transitive reduction (default true; skipped when the graph has a cycle). */
  reduce?: boolean;
  /** Keep the graph's text after every transformer in `steps[i].text`. */
  traceSteps?: boolean;
}

export type NodeKind =
  | "resource" | "resource_validate" | "resource_instance" | "resource_instance_destroy"
  | "resource_instance_destroy_deposed" | "resource_instance_forget" | "resource_instance_forget_deposed"
  | "resource_instance_orphan" | "resource_instance_deposed"
  | "provider" | "provider_proxy" | "provider_close" | "root_variable" | "module_variable"
  | "variable_validation" | "local" | "output" | "output_destroy" | "module_expand" | "module_close"
  | "root" | "check" | "check_report" | "ephemeral_close";

export interface GraphNode {
  /** Terraform's vertex name: `aws_instance.web (expand)`, `provider["registry.terraform.io/hashicorp/aws"]`, `root`. */
  name: string;
  kind: NodeKind;
  /** The object's absolute address (`module.net.aws_subnet.a`), empty for `root`. */
  address: string;
  /** The module path as Terraform prints it (`module.net`), empty for the root module. */
  module: string;
  range: SourceRange | null;
}

/** Why an edge exists; `text` explains it in a sentence. */
export type Why = { text: string } & (
  | { kind: "reference"; traversal: string; context: string; range: SourceRange }
  | { kind: "depends_on"; traversal: string; range: SourceRange }
  | { kind: "provider"; range: SourceRange | null; via: string[] }
  | { kind: "provider_config_reference"; traversal: string; context: string; range: SourceRange }
  | { kind: "destroy_order"; dependency: string }
  | { kind: "destroy_phase"; traversal: string }
  | { kind: "state_order"; dependency: string; dependent: string }
  | { kind: "cbd_flipped"; original: Omit<Why, "text"> }
  | {
      kind:
        | "module_expansion" | "module_close" | "provider_close" | "root_close" | "variable_validation"
        | "check_report" | "ephemeral_close" | "instance_of_resource" | "replace_destroy_first";
    }
);

/** `from` depends on `to` (the direction of `terraform graph`). */
export interface GraphEdge {
  from: string;
  to: string;
  why: Why[];
}

/** One transformer of the build. */
export interface StepRecord {
  /** Terraform's transformer name (`ReferenceTransformer`). */
  name: string;
  /** Why it sits where it does. */
  reason: string;
  nodes: number;
  edges: number;
  changed: boolean;
  /** The graph's `String()` after the step (with `traceSteps`). */
  text?: string;
  diagnostics: number;
  /** How long the step took, in microseconds (`performance.now()`; absent where the host has none). */
  micros?: number;
}

export interface RenderOptions {
  /** `"resources"` (default; `terraform graph` since 1.7) or `"full"` (`terraform graph -type=plan`). */
  type?: "resources" | "full";
  /** Colour the edges of each cycle red (`-draw-cycles`). */
  drawCycles?: boolean;
}

/** One of Terraform's graphs (see buildGraph). */
export declare class Graph {
  private constructor();
  /** Loading warnings, then the build's diagnostics (one error per cycle, with the loop explained). */
  readonly diagnostics: Diagnostic[];
  readonly steps: StepRecord[];
  nodes(): GraphNode[];
  edges(): GraphEdge[];
  /** Edges removed by transitive reduction: the dependency still holds through other edges. */
  impliedEdges(): GraphEdge[];
  /** Exactly Terraform's `Graph.String()`. */
  toString(): string;
  toDot(options?: RenderOptions): string;
  toMermaid(options?: RenderOptions): string;
  /** Direct dependencies of the node named `name` (a RangeError if there is none). */
  dependencies(name: string): string[];
  dependents(name: string): string[];
  ancestors(name: string): string[];
  descendants(name: string): string[];
  /** Why `from` depends on `to`, one sentence per reason (empty if it does not directly). */
  explain(from: string, to: string): string[];
  /** Each strongly connected component of more than one node. */
  cycles(): string[][];
  /** Releases the graph's wasm memory now (otherwise the garbage collector does). */
  free(): void;
}

/**
 * Builds the graph Terraform builds for `options.operation` (default "plan") from files or from
 * a configuration returned by loadConfig. A graph with cycles is still returned.
 *
 * @throws {TfgraphError} when the configuration, state or changes have an error.
 * @throws {TypeError} when an argument is malformed.
 */
export declare function buildGraph(files: Files | LoadedConfig, options?: BuildOptions): Graph;

// ---------------------------------------------------------------------------------------------
// Evaluation (src/eval)

/** `true` for a wholly marked value, `false` for none, else the same shape as `value`. */
export type Marks = boolean | Marks[] | { [key: string]: Marks };

export interface EvaluateOptions {
  /** Input variable values, as `-var` gives them (they take precedence over tfvars files). */
  variables?: Record<string, unknown>;
  /** A Terraform state v4 object: resource attributes come from it (unknown without one). */
  state?: object | string;
  /** The root module's folder within the files (`""` = the top level). */
  root?: string;
  /**
   * The working directory Terraform would run in (the root module's folder): an absolute,
   * slash-separated path, what `path.cwd` is and `abspath` joins relative paths to; absolute
   * paths under it read the files given. Default: the directory `readConfigDir` read the files
   * from, joined with `root`; else none (`path.cwd` is `"."`, `abspath("x")` unknown).
   */
  cwd?: string;
  /**
   * The module to evaluate in: `""` (the root, the default) or `"module.a.module.b"`. A module
   * call with count or for_each has no single scope and is refused.
   */
  module?: string;
}

export interface Evaluated {
  /** The value as JSON-compatible data; unknown parts are `null` (see `unknown`). */
  value: unknown;
  /** Which parts are unknown ("known after apply"), as plan JSON's `after_unknown`. */
  unknown: Marks;
  /** Which parts are sensitive, as plan JSON's `after_sensitive`. */
  sensitive: Marks;
  /** `jsonencode`'s exact text (numbers keep every digit); null when a part is unknown. */
  json: string | null;
  /** The type as `type()` prints it: `string`, `list(string)`, `object({\n    a: number,\n})`. */
  type: string;
  /** The value exactly as `terraform console` prints it. */
  rendered: string;
  /** Warnings (errors throw). */
  diagnostics: Diagnostic[];
}

/**
 * Evaluates one expression in a module's scope (the root's by default), as `terraform console`
 * does.
 *
 * @throws {TfgraphError} when the configuration, a variable or the expression has an error.
 * @throws {TypeError} when an argument is malformed.
 */
export declare function evaluate(files: Files | LoadedConfig, expression: string, options?: EvaluateOptions): Evaluated;

/**
 * Whether console lines entered so far leave a bracket, a heredoc or a template sequence open,
 * so that a console should read another line before it evaluates them, as `terraform console`
 * does in a terminal (its prompt then is `: `). An empty last line always ends the entry, and so
 * does a closing bracket that matches nothing (its syntax error shows at once).
 *
 * @throws {TypeError} when `lines` is not an array of strings.
 */
export declare function expressionContinues(lines: string[]): boolean;

// ---------------------------------------------------------------------------------------------
// terraform test (src/testing)

/** A run's or a file's status; `"error"` prints as `fail` in the text. */
export type TestStatus = "pending" | "skip" | "pass" | "fail" | "error";

export interface TestOptions {
  /** `-var`: values of input variables (the lowest precedence after the test files' own). */
  variables?: Record<string, unknown>;
  /** `-var-file`: `{ path: contents }` of .tfvars files, in order. */
  varFiles?: Record<string, string>;
  /** `-filter`: only these test files (paths among the files). */
  filter?: string[];
  /** `-test-directory` (`tests` by default). */
  testDirectory?: string;
  /** `-verbose`: `stdout` shows each run's plan or state after it, as `terraform test -verbose` does, and each run's result carries its plan's text (`TestRunResult.plan`). */
  verbose?: boolean;
  /** Told of each event as the runner reaches it. */
  onEvent?: (event: TestEvent) => void;
  /** The limits each run's plan and apply keep to, as `plan`'s. */
  limits?: PlanLimits;
}

export type TestEvent =
  | { type: "abstract"; files: { path: string; runs: string[] }[] }
  | { type: "file"; file: string; progress: "starting" | "teardown" | "complete"; status?: TestStatus; diagnostics?: Diagnostic[] }
  | { type: "run"; file: string; run: string; progress: "starting" | "teardown" | "complete"; status?: TestStatus; diagnostics?: Diagnostic[] }
  | { type: "cleanup"; file: string; run: string | null; diagnostics: Diagnostic[]; left: string[] }
  | { type: "summary"; status: TestStatus }
  | { type: "diagnostics"; diagnostics: Diagnostic[] };

export interface TestRunResult {
  name: string;
  status: TestStatus;
  /** Failed assertions ("Test assertion failed", with the message and the condition's range) and errors. */
  diagnostics: Diagnostic[];
  /** The module's outputs after the run (`run.NAME.OUTPUT` to later runs); unknown parts are null. */
  outputs: Record<string, unknown> | null;
  /** The state it used (`""`: the module under test's). */
  stateKey: string;
  /** The state after an apply run (state v4); null for plan runs. */
  state: unknown | null;
  /**
   * With `verbose`: the run's plan as `terraform plan` prints it (what `terraform test -verbose`
   * prints after a plan run); null without `verbose`, or when the run did not plan.
   */
  plan: string | null;
}

export interface TestFileResult {
  path: string;
  status: TestStatus;
  runs: TestRunResult[];
  diagnostics: Diagnostic[];
}

export interface TestResult {
  status: TestStatus;
  /** `terraform test`'s exit status: 0 when everything passed, 1 otherwise. */
  exitCode: number;
  files: TestFileResult[];
  /** Problems that stopped every file (a malformed test file). */
  diagnostics: Diagnostic[];
  /** What `terraform test` prints on stdout and on stderr. */
  stdout: string;
  stderr: string;
  /** `terraform test -json`'s lines (without timestamps). */
  json: Record<string, unknown>[];
  /** `terraform test -junit-xml`'s report (without run times). */
  junit: string;
}

/**
 * Runs Terraform's test files (`*.tftest.hcl` and `*.tftest.json`) as `terraform test` does,
 * against the in-memory mock providers (the files' `mock_provider` blocks, else tfgraph's): no
 * init, no provider binaries. `override_module` is not run yet (a file with one reports an error
 * and skips its runs).
 */
export declare function test(files: Files, options?: TestOptions): Promise<TestResult>;

// ---------------------------------------------------------------------------------------------
// The walker (src/walk)

export interface WalkDag {
  nodes: string[];
  /** `[from, to]`: `from` depends on `to`. */
  edges?: [from: string, to: string][];
}
/** Return this from a visit to expand the node into a subgraph walked inside it. */
export interface WalkExpansion {
  expand: WalkDag;
}
export type WalkEventType = "start" | "finish" | "fail" | "skip" | "cancel";
export interface WalkEvent {
  type: WalkEventType;
  node: string;
  /** Milliseconds (`performance.now()`). */
  time: number;
  /** The expanded node this one belongs to. */
  parent?: string;
}
export interface WalkOptions {
  /** Whole number >= 1; default 10 (Terraform's `-parallelism`). */
  parallelism?: number;
  signal?: AbortSignal;
  /** If it throws, the walk is cancelled and rejects with that error. */
  onEvent?: (event: WalkEvent) => void;
  /** Yield to the event loop every N scheduling steps (default 1000). */
  yieldEvery?: number;
}
export interface WalkReport {
  completed: string[];
  failed: { node: string; error: unknown }[];
  /** Never visited because something they depend on failed. */
  skipped: string[];
  /** Never started because the walk was aborted. */
  cancelled: string[];
  maxConcurrency: number;
  times: Map<string, { start: number; end: number }>;
}

/**
 * Walks a DAG as Terraform walks its graphs.
 *
 * @throws {TfgraphError} (rejects) for an invalid parallelism, an unknown node in an edge, a
 *   duplicate node name or a cycle, before visiting anything.
 */
export declare function walk(
  dag: WalkDag | Graph,
  visit: (node: string, parent: string | undefined) => unknown,
  options?: WalkOptions,
): Promise<WalkReport>;

// ---------------------------------------------------------------------------------------------
// Plan, apply and destroy (src/engine, src/providers; issue #11)

/** A provider operation, as `onEvent` and the report name it. */
export type EngineOperation = "create" | "update" | "delete" | "read" | "import";

/** What happened to one provider operation. */
export type EngineEventKind = "start" | "finish" | "fail" | "skip" | "cancel";

/**
 * One provider operation starting or ending, as it happens. Enough for Terraform's progress
 * lines: `start` + `create` is `ADDR: Creating...`, `finish` + `create` is `ADDR: Creation
 * complete after 0s [id=ID]`, `start` + `delete` is `ADDR: Destroying... [id=PRIOR_ID]`, a plan's
 * `start` + `read` of a managed resource is `ADDR: Refreshing state... [id=PRIOR_ID]`; `import`
 * (an `import` block) is `ADDR: Preparing import... [id=ID]` in a plan, `ADDR: Importing...
 * [id=ID]` then `ADDR: Import complete [id=ID]` in an apply.
 */
export interface EngineEvent {
  kind: EngineEventKind;
  /** The resource instance (`aws_instance.web[0]`, `module.net.data.aws_ami.u`). */
  address: string;
  operation: EngineOperation;
  /** The deposed object's key when the operation is on one (create_before_destroy), else null. */
  deposed: string | null;
  /** "plan" (refresh and data source reads) or "apply". */
  phase: "plan" | "apply";
  /** The object's id before the operation (updates, deletes, refreshes), when it has one. */
  priorId: string | null;
  /** `finish`: the object's id after it (creates, updates, reads); null otherwise. */
  id: string | null;
  /** Milliseconds since the walk started. */
  time: number;
  /** `finish`, `fail`: how long the operation took, in milliseconds. */
  elapsedMs?: number;
  /** `fail`: the diagnostics of the failure (`skip`, `cancel`: none). */
  diagnostics?: Diagnostic[];
  /**
   * Events passed to `onEvent` (and a plan's `events`): Terraform's progress line for this
   * event, as `terraform plan` / `apply -no-color` prints it (`ADDR: Creating...`, `ADDR:
   * Creation complete after 0s [id=ID]`, `ADDR: Refreshing state... [id=ID]`), its elapsed time
   * Terraform's (end and start each rounded to the second); absent when Terraform prints none
   * (a refresh's end, `fail`, `skip`, `cancel`). The CLI prints these and the playground shows them.
   */
  line?: string;
}

/**
 * The built-in `mock` provider's knobs (the oracle's `MOCK_*` environment variables): how long
 * each operation takes, and which objects fail.
 */
export interface MockOptions {
  /** Every operation's duration in milliseconds (default 0), honoured with real timers. */
  delayMs?: number;
  /** Durations by the object's `name` attribute (overrides `delayMs`). */
  delayByName?: Record<string, number>;
  /** Objects (by `name` attribute) whose operations fail. */
  failNames?: string[];
  /**
   * Resource instances whose operations fail, by address: `aws_instance.web[1]`,
   * `module.m.aws_subnet.a["x"]`; a resource's address without a key (`aws_instance.web`) fails
   * every instance of it (a module call without a key: each of its instances). For objects with
   * no `name` attribute (the generic mock's). Apply-time operations only; an entry that is not a
   * resource instance address is an error diagnostic of the plan ("Invalid failAddresses entry").
   * An array, or one comma-separated string split outside index brackets (`a.b["x,y"]` is one
   * address), as tfgraph's `MOCK_FAIL_ADDRESS` is.
   */
  failAddresses?: string[] | string;
  /**
   * Which operations fail for `failNames` and `failAddresses`: "create" (the default), "update",
   * "delete", "read_data" (a data source read deferred to the apply). Failures are injected at
   * apply only, as the oracle's mock provider injects them (it fails creates, updates and
   * deletes): plan-time refreshes and data source reads never fail, so "read" fails nothing.
   */
  failOps?: ("create" | "update" | "delete" | "read" | "read_data")[];
  /** Seed of the jitter and the rate limits below (default 0): one seed, one timeline. */
  seed?: number;
  /** Each operation's duration varies by up to this many milliseconds either way (default 0). */
  jitterMs?: number;
  /** The share (0 to 1) of calls answered with a transient rate-limit error, which the provider retries with backoff (default 0). */
  rateLimit?: number;
  /** How many times the provider retries a rate-limited call before failing it. */
  maxRetries?: number;
}

/**
 * A resource type's or data source's schema, as a JS provider declares it (the subset of
 * `terraform providers schema -json` the engine reads). Attribute types are Terraform's JSON
 * type form: `"string"`, `"number"`, `"bool"`, `["list","string"]`, `["map","string"]`,
 * `["object",{"a":"string"}]`, `"dynamic"`.
 */
export interface JsResourceSchema {
  version?: number;
  attributes: Record<
    string,
    {
      type: JsonValue;
      optional?: boolean;
      computed?: boolean;
      required?: boolean;
      sensitive?: boolean;
      /** A change of this attribute replaces the object (Terraform's RequiresReplace). */
      requires_replace?: boolean;
    }
  >;
}

/** What a JS provider's `schema()` returns. */
export interface JsProviderSchema {
  /** The `provider` block's arguments (`configure()` gets them evaluated against it). */
  provider?: JsResourceSchema;
  resources?: Record<string, JsResourceSchema>;
  data_sources?: Record<string, JsResourceSchema>;
}

/**
 * Values crossing to and from a JS provider: an object of the type's attributes as plain JSON
 * (unset attributes `null`), and, beside it, which parts are unknown ("known after apply") in
 * the shape of plan JSON's `after_unknown` (`true` for a wholly unknown attribute; an unknown
 * part's value is `null`).
 */
export interface JsProviderObject {
  value: { [attribute: string]: JsonValue };
  unknown?: Marks;
}

/**
 * A provider written in JS, plugged in with `providers: { "hashicorp/aws": impl }` (the key is
 * the provider's source address, `registry.terraform.io/` optional). Every method may be async.
 * A method that throws (or rejects) fails that operation with an error diagnostic naming the
 * provider, the method and the resource instance; so does a result of the wrong shape. Nothing
 * a provider does crashes the walk.
 */
export interface JsProvider {
  /** The schemas of its resource types and data sources (and `provider`: its `provider` block's), asked once per plan/apply. */
  schema(): JsProviderSchema | Promise<JsProviderSchema>;
  /**
   * Called once per provider configuration in each walk (plan, apply), before that
   * configuration's first resource operation and after the resources its block reads, with its
   * evaluated `provider` block (values not known yet marked unknown). Throwing is an error
   * diagnostic naming the configuration.
   */
  configure?(request: {
    config: JsProviderObject;
    /** The configuration's address: `provider["registry.terraform.io/hashicorp/aws"].west`. */
    provider: string;
    alias: string | null;
  }): void | Promise<void>;
  /**
   * Plans a create (`prior` null) or an update of an object towards `config` (the resource
   * block's arguments, with `null` for unset and computed attributes; unknown parts marked).
   * Returns the planned object (computed attributes unknown where they will change) and the
   * attributes whose change forces replacement.
   */
  planResourceChange(request: {
    typeName: string;
    prior: JsProviderObject | null;
    config: JsProviderObject;
    /** The provider configuration the resource uses (every request carries it). */
    provider: string;
  }): { planned: JsProviderObject; requiresReplace?: string[] } | Promise<{ planned: JsProviderObject; requiresReplace?: string[] }>;
  /**
   * Applies a planned change: `planned` null deletes `prior`. Returns the new object (null after a
   * delete). Throwing fails the operation (a failed create leaves no object; a failed update
   * keeps the prior one).
   */
  applyResourceChange(request: {
    typeName: string;
    prior: JsProviderObject | null;
    planned: JsProviderObject | null;
    provider: string;
  }): { newState: JsProviderObject | null } | Promise<{ newState: JsProviderObject | null }>;
  /** Refresh: the object as it exists now (`newState` null: it is gone). */
  readResource(request: { typeName: string; state: JsProviderObject; provider: string }): { newState: JsProviderObject | null } | Promise<{ newState: JsProviderObject | null }>;
  /** Reads a data source from its (wholly known) configuration. */
  readDataSource(request: { typeName: string; config: JsProviderObject; provider: string }): { state: JsProviderObject } | Promise<{ state: JsProviderObject }>;
  /** `import` blocks: the object with this id (optional; without it importing is an error). */
  importResourceState?(request: { typeName: string; id: string }): { state: JsProviderObject } | Promise<{ state: JsProviderObject }>;
}

/** Options of `plan`. */
export interface PlanOptions extends LoadOptions {
  /** The prior state (a `terraform.tfstate` object or its text); none: everything is new. */
  state?: StateV4 | string | null;
  /** Input variables, as `-var` gives them (tfvars files among the files are read too). */
  variables?: Record<string, unknown>;
  /** Providers written in JS, by source address (`"hashicorp/aws"`; a bare `"aws"` is `hashicorp/aws`), beside the mocks. */
  providers?: Record<string, JsProvider>;
  /** The built-in mock provider's knobs (`hashicorp/mock`). */
  mock?: MockOptions;
  /** How far the plan may expand (see PlanLimits). */
  limits?: PlanLimits;
  /** At most this many provider operations at once (default 10, Terraform's `-parallelism`). */
  parallelism?: number;
  /** Aborting stops new provider operations; those in flight finish (see `apply`). */
  signal?: AbortSignal;
  /**
   * Called as each provider operation starts and ends, in the plan walk too (its refreshes and
   * data source reads, as the walk reaches them). If it throws during an apply, the apply halts
   * as on abort, with an error diagnostic quoting it; during a plan, `onEvent` is not called
   * again and `plan()` rejects with what it threw once the walk ends.
   */
  onEvent?: (event: EngineEvent) => void;
  /** `terraform plan -destroy` (default false). */
  destroy?: boolean;
  /** Refresh the prior state through the providers first (default true; `-refresh=false`). */
  refresh?: boolean;
  /**
   * `-target=ADDR`: plan only these resources, resource instances or module instances
   * (`"aws_instance.web"`, `"aws_instance.web[0]"`, `"module.net"`) and what they depend on (in
   * a destroy plan: what depends on them). The plan carries Terraform's "Resource targeting is
   * in effect" warning and is not `complete`; a malformed address is an error diagnostic. An
   * array, or one comma-separated string (split outside index brackets).
   */
  targets?: string[] | string;
  /**
   * `-replace=ADDR`: replace these resource instances even where an update would do
   * (`actionReason` `"replace_by_request"`). Not with `destroy`. An array, or one
   * comma-separated string.
   */
  replace?: string[] | string;
}

/** Options of `apply` and `destroy`. */
export interface ApplyOptions extends PlanOptions {
  /**
   * Called with the state after each operation, as Terraform persists it. A state that takes
   * more than a millisecond to make is paced: the next call waits until four times that has
   * passed, and brings every object written meanwhile; the walk's last state always comes. If
   * it throws, the apply halts as on abort. `text` is the same state as the engine's JSON text,
   * its numbers exact (`state`'s are JS numbers: 12345678901234567890 does not fit one).
   */
  onState?: (state: StateV4, text: string) => void;
  /**
   * Called as the apply walk starts and ends each node of the apply graph (the graph
   * `buildGraph` draws for the plan with `operation: "apply"`): every node, provider
   * configurations and their `provider[...] (close)`, variables, locals, outputs, modules'
   * expansion and close and the root included, in `walk()`'s shape. `node` is Terraform's vertex
   * name, `time` milliseconds since the walk began (as `EngineEvent.time`). A resource node's
   * `start` comes before its operation's `onEvent` start, its end after the operation's end.
   * If it throws, the apply halts as on abort.
   */
  onWalkEvent?: (event: WalkEvent) => void;
}

/** One planned change of a resource instance object. */
export interface PlannedChange {
  address: string;
  /** Terraform's action list. */
  actions: ActionList;
  /** The object before (null when created) and after (null when deleted), as plan JSON shows them. */
  before: JsonValue;
  after: JsonValue;
  /** Which parts of `after` are unknown until apply (plan JSON's `after_unknown`). */
  afterUnknown: Marks;
  /** The attribute paths that force the replacement (`[["ami"]]`). */
  replacePaths: string[][];
  /** Terraform's `action_reason` (`replace_because_cannot_update`, `delete_because_no_resource_config`, ...). */
  actionReason: string | null;
  /** The deposed object's key, for a change of a deposed object. */
  deposed: string | null;
  /** The id an `import` block imports this object with (plan JSON's `importing.id`). */
  importing: string | null;
}

/** `terraform show -json` of a plan (format_version "1.2"). */
export interface PlanJson {
  format_version: "1.2";
  terraform_version: string;
  variables?: Record<string, { value: JsonValue }>;
  planned_values: { outputs?: Record<string, JsonValue>; root_module: JsonValue };
  resource_changes?: JsonValue[];
  output_changes?: Record<string, JsonValue>;
  prior_state?: JsonValue;
  /** Terraform's `configuration` (not written by tfgraph yet). */
  configuration?: JsonValue;
  relevant_attributes?: JsonValue[];
  checks?: JsonValue[];
  timestamp: string | null;
  applyable: boolean;
  complete: boolean;
  errored: boolean;
  [key: string]: JsonValue | undefined;
}

/** A plan (see `plan`). Pass it to `apply` to apply exactly it. */
export declare class Plan {
  private constructor();
  /** Every resource instance change, no-ops included, in Terraform's order (by address). */
  readonly changes: PlannedChange[];
  /** Loading, planning and provider diagnostics (a cycle, an unknown count, a provider error, ...). */
  readonly diagnostics: Diagnostic[];
  /** True when planning failed: the plan cannot be applied. */
  readonly errored: boolean;
  /** True when applying would change something (resources or outputs): `-detailed-exitcode` 2. */
  readonly hasChanges: boolean;
  /** `plan -destroy`. */
  readonly destroy: boolean;
  /** The plan's refresh and data source reads, as `onEvent` reported them. */
  readonly events: EngineEvent[];
  /** Exactly `terraform show -json` of the saved plan (format 1.2; `timestamp` null). */
  toJSON(): PlanJson;
  /** Exactly what `terraform plan -no-color` prints after its refresh lines. */
  toString(): string;
  /**
   * Releases the plan's wasm memory now; otherwise only when the garbage collector collects the
   * Plan, which wasm memory does not prompt. Reading or applying it afterwards throws TfgraphError.
   */
  free(): void;
}

/** How an apply went. */
export interface ApplyReport {
  /** Every provider operation's start and end, in the order they happened. */
  events: EngineEvent[];
  /** The operations grouped by start (`"create ADDR"`, `" FAILED"` appended on failure), as the fixtures record Terraform's. */
  waves: string[][];
  /** The most provider operations that were in flight at once. */
  maxConcurrency: number;
  /**
   * What `terraform apply -no-color` prints: a progress line per operation event (elapsed times
   * as Terraform prints them, `after 2s`), then `Apply complete! Resources: ...` and `Outputs:`
   * (neither after an error).
   */
  progress: string;
  added: number;
  changed: number;
  destroyed: number;
  /** Objects `import` blocks imported (`Apply complete! Resources: N imported, ...`). */
  imported: number;
  /** Wall-clock milliseconds the walk took. */
  elapsedMs: number;
}

/** What `apply` and `destroy` resolve to. */
export interface ApplyResult {
  /**
   * The state after the apply (state v4): everything done before a failure or an abort is in it.
   * When nothing was applied (an errored or stale plan) it is the state given, or `null` if none.
   */
  state: StateV4 | null;
  /** `state` as the engine's JSON text, its numbers exact (12345678901234567890 is not a JS number). */
  stateText: string;
  /** The plan's and the apply's diagnostics (a failed operation, "execution halted", ...). */
  diagnostics: Diagnostic[];
  report: ApplyReport;
  /** The plan that was applied. */
  plan: Plan;
}

/**
 * Plans as `terraform plan` does: refreshes the prior state, expands count/for_each, and
 * decides every instance's action against the providers (the built-in `mock`, JS ones from
 * `providers`). Never rejects for the user's input: a configuration error, a cycle or an unknown
 * count comes back as a Plan with `errored` true and the diagnostics.
 *
 * @throws {TypeError} (rejects) when an argument is malformed.
 * @throws {TfgraphError} (rejects) when the WebAssembly module runs out of memory or traps: the
 *   diagnostic says what ran out and where; the next call works on a fresh module instance.
 */
export declare function plan(files: Files | LoadedConfig, options?: PlanOptions): Promise<Plan>;

/**
 * Applies as `terraform apply` does: given files (or a configuration) it plans first; given a
 * Plan it applies exactly that plan, and refuses it ("Saved plan is stale") when the
 * configuration and `options.state` now plan something else. At most `parallelism` provider
 * operations at once; a failure skips what depends on it; aborting `signal` starts nothing new,
 * lets the operations in flight finish, and resolves with the state written so far. Never
 * rejects for the user's input or a provider's failure: see `diagnostics`.
 *
 * @throws {TypeError} (rejects) when an argument is malformed.
 * @throws {TfgraphError} (rejects) when the WebAssembly module runs out of memory or traps
 *   midway: the error's `state` is the state written so far, as `onState` last had it.
 */
export declare function apply(input: Files | LoadedConfig | Plan, options?: ApplyOptions): Promise<ApplyResult>;

/** `terraform destroy`: a destroy plan of the state, applied. */
export declare function destroy(files: Files | LoadedConfig, options?: ApplyOptions): Promise<ApplyResult>;
