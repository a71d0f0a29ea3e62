/**
 * Helpers for tests and benchmarks outside lib/openjd: seed templates, generators of random
 * templates and EXPR cases, and short ways to build a job or a form. Never imported by the app.
 */
export { definitions, field } from "../form/form-test-support";
export { createOk } from "../job/job-test-support";
export { caseFailures, type ExprCase, generateExprCase, runExprCase, runPathological } from "./expr-case";
export { BUILT_IN_EXPRESSIONS, type CorpusExpression, expressionsInDocument, symbolsFor } from "./expr-corpus";
export { pathologicalExpressions } from "./expr-pathological";
export { concreteSymbols } from "./expr-symbols";
export { pathologicalInputs } from "./pathological-templates";
export { type CaseOutcome, generateCase, runCase } from "./robustness-case";
export { SEED_TEMPLATES } from "./seed-templates";
export { ADJACENCY_DAG, SIM_THEN_RENDER } from "./task-dependency-templates";
export { parseTree, type SeedTemplate, type TreeValue } from "./template-mutator";
