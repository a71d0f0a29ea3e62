/**
 * Host requirements (spec §3.3; digest §5.1, §13.3, §18.8, §18.10; catalogue rows 106–115).
 * `hostRequirements: {}` is an error per the spec, although the 2024 reference accepts it (§2.8).
 */
import { describe, it } from "vitest";
import { expectError, expectValid, withExtensions, withStep, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const H = "steps[0].hostRequirements";
const host = (hostRequirements: unknown, params?: Doc[]): Doc => {
  const doc = withStep({ hostRequirements });
  if (params) doc.parameterDefinitions = params;
  return doc;
};
const amounts = (...list: Doc[]) => host({ amounts: list });
const attributes = (...list: Doc[]) => host({ attributes: list });
const fb1 = (doc: Doc) => withExtensions(doc, "FEATURE_BUNDLE_1");
const customAmounts = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `amount.custom.a${i}`, min: 1 }));
const customAttributes = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `attr.custom.a${i}`, anyOf: ["x"] }));

describe("valid host requirements", () => {
  it.each<ValidRow>([
    ["every standard amount", amounts(...["vcpu", "memory", "gpu", "gpu.memory", "disk.scratch"].map((n) => ({ name: `amount.worker.${n}`, min: 1 })))],
    ["standard names compare case-insensitively", amounts({ name: "AMOUNT.Worker.VCPU", min: 2 })],
    ["min only, max only, min == max, min 0", amounts({ name: "amount.custom.a", min: 0 }, { name: "amount.custom.b", max: 0.5 }, { name: "amount.custom.c", min: 3, max: 3 })],
    ["vendor-prefixed custom amount", amounts({ name: "acme:amount.license.nuke", min: 1 })],
    ["50 requirements in total (25 + 25)", host({ amounts: customAmounts(25), attributes: customAttributes(25) })],
    ["amount name of exactly 100 characters", amounts({ name: `amount.${"a".repeat(93)}`, min: 1 })],
    ["os.family values in any case", attributes({ name: "attr.worker.os.family", anyOf: ["Linux", "WINDOWS", "macos"] })],
    ["cpu.arch with allOf of one value", attributes({ name: "attr.worker.cpu.arch", allOf: ["arm64"] })],
    ["custom attribute with '-' and '_' in values", attributes({ name: "attr.custom.host_config", anyOf: ["_a-b", "Option1"], allOf: ["x"] })],
    ["attribute value of exactly 100 characters", attributes({ name: "attr.custom.v", anyOf: ["v".repeat(100)] })],
    ["50 anyOf values", attributes({ name: "attr.custom.v", anyOf: Array.from({ length: 50 }, (_, i) => `v${i}`) })],
    ["attribute value from a STRING parameter", host({ attributes: [{ name: "attr.custom.v", anyOf: ["{{Param.V}}"] }] }, [{ name: "V", type: "STRING" }])],
    ["attribute value from RawParam of a PATH parameter", host({ attributes: [{ name: "attr.custom.v", anyOf: ["{{RawParam.P}}"] }] }, [{ name: "P", type: "PATH" }])],
    ["FEATURE_BUNDLE_1 amount bounds as strings", fb1(amounts({ name: "amount.custom.a", min: "1.5", max: "010" }))],
    ["FEATURE_BUNDLE_1 amount bound from an INT parameter", fb1(host({ amounts: [{ name: "amount.worker.vcpu", min: "{{Param.N}}" }] }, [{ name: "N", type: "INT" }]))],
  ])("%s", (_name, doc) => expectValid(doc));
});

describe("hostRequirements and amounts", () => {
  it.each<InvalidRow>([
    ["hostRequirements: {} (the 2024 reference wrongly accepts it)", host({}), H, /needs amounts, attributes, or both/],
    ["unknown key", host({ amounts: customAmounts(1), gpus: 1 }), `${H}.gpus`, /unknown field 'gpus'/],
    ["empty amounts", host({ amounts: [] }), `${H}.amounts`, /must not be empty/],
    ["empty attributes", host({ attributes: [] }), `${H}.attributes`, /must not be empty/],
    ["51 requirements in total (26 + 25)", host({ amounts: customAmounts(26), attributes: customAttributes(25) }), H, /at most 50 requirements in total.*51/],
    ["51 amounts", host({ amounts: customAmounts(51) }), H, /at most 50/],
    ["amount with neither min nor max", amounts({ name: "amount.custom.a" }), `${H}.amounts[0]`, /needs min, max, or both/],
    ["amount without a name", amounts({ min: 1 }), `${H}.amounts[0].name`, /missing required field 'name'/],
    ["amount with an unknown key", amounts({ name: "amount.custom.a", min: 1, value: 2 }), `${H}.amounts[0].value`, /unknown field/],
    ["amount min -0.5", amounts({ name: "amount.custom.a", min: -0.5 }), `${H}.amounts[0].min`, /zero or greater/],
    ["amount max -1", amounts({ name: "amount.custom.a", max: -1 }), `${H}.amounts[0].max`, /greater than zero/],
    ["amount min 2.5 > max 2", amounts({ name: "amount.custom.a", min: 2.5, max: 2 }), `${H}.amounts[0].max`, /greater than or equal to min/],
    ["amount min as a string without FEATURE_BUNDLE_1", amounts({ name: "amount.custom.a", min: "4" }), `${H}.amounts[0].min`, /requires extension FEATURE_BUNDLE_1/],
    ["amount min that is a boolean", amounts({ name: "amount.custom.a", min: true }), `${H}.amounts[0].min`, /expected a number/],
    ["FEATURE_BUNDLE_1 amount min 'abc'", fb1(amounts({ name: "amount.custom.a", min: "abc" })), `${H}.amounts[0].min`, /not a number/],
    ["FEATURE_BUNDLE_1 amount max '0'", fb1(amounts({ name: "amount.custom.a", max: "0" })), `${H}.amounts[0].max`, /greater than zero/],
    [
      "FEATURE_BUNDLE_1 amount min from Param of a PATH parameter",
      fb1(host({ amounts: [{ name: "amount.custom.a", min: "{{Param.P}}" }] }, [{ name: "P", type: "PATH" }])),
      `${H}.amounts[0].min`,
      /use RawParam\.P/,
    ],
    ["amount name without the 'amount.' prefix", amounts({ name: "vcpu", min: 1 }), `${H}.amounts[0].name`, /must start with 'amount\.'/],
    ["amount.worker.foo (reserved scope)", amounts({ name: "amount.worker.foo", min: 1 }), `${H}.amounts[0].name`, /only OpenJD standard capabilities/],
    ["amount.task.x (reserved scope)", amounts({ name: "amount.task.x", min: 1 }), `${H}.amounts[0].name`, /only OpenJD standard capabilities/],
    ["amount.step.x (reserved scope)", amounts({ name: "amount.step.x", min: 1 }), `${H}.amounts[0].name`, /only OpenJD standard capabilities/],
    ["vendor prefix starting with a digit", amounts({ name: "1v:amount.x", min: 1 }), `${H}.amounts[0].name`, /invalid vendor prefix '1v'/],
    ["amount name segment starting with a digit", amounts({ name: "amount.custom.1x", min: 1 }), `${H}.amounts[0].name`, /not a valid amount capability name/],
    ["amount name of 101 characters", amounts({ name: `amount.${"a".repeat(94)}`, min: 1 }), `${H}.amounts[0].name`, /at most 100/],
    ["duplicate amount names differing in case", amounts({ name: "amount.custom.A", min: 1 }, { name: "AMOUNT.custom.a", min: 1 }), `${H}.amounts[1].name`, /duplicate amount requirement/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("attributes", () => {
  const A = `${H}.attributes[0]`;
  it.each<InvalidRow>([
    ["attribute with neither anyOf nor allOf", attributes({ name: "attr.custom.a" }), A, /needs anyOf, allOf, or both/],
    ["empty anyOf", attributes({ name: "attr.custom.a", anyOf: [] }), `${A}.anyOf`, /must not be empty/],
    ["51 allOf values", attributes({ name: "attr.custom.a", allOf: Array.from({ length: 51 }, (_, i) => `v${i}`) }), `${A}.allOf`, /at most 50/],
    ["an amount name in attributes", attributes({ name: "amount.custom.a", anyOf: ["x"] }), `${A}.name`, /start with 'attr\.'/],
    ["attr.job.x (reserved scope)", attributes({ name: "attr.job.x", anyOf: ["x"] }), `${A}.name`, /only OpenJD standard capabilities/],
    ["attribute name of 101 characters", attributes({ name: `attr.${"a".repeat(96)}`, anyOf: ["x"] }), `${A}.name`, /at most 100/],
    ["os.family value not in the standard list", attributes({ name: "attr.worker.os.family", anyOf: ["linux", "beos"] }), `${A}.anyOf[1]`, /not a valid value for attr\.worker\.os\.family/],
    ["cpu.arch value not in the standard list", attributes({ name: "attr.worker.cpu.arch", allOf: ["x86"] }), `${A}.allOf[0]`, /not a valid value/],
    ["os.family allOf with two values", attributes({ name: "attr.worker.os.family", allOf: ["linux", "windows"] }), `${A}.allOf`, /cannot list several/],
    ["attribute value with a space", attributes({ name: "attr.custom.a", anyOf: ["a b"] }), `${A}.anyOf[0]`, /not a valid attribute value/],
    ["attribute value starting with '-'", attributes({ name: "attr.custom.a", anyOf: ["-a"] }), `${A}.anyOf[0]`, /not a valid attribute value/],
    ["attribute value with a non-latin letter", attributes({ name: "attr.custom.a", anyOf: ["é"] }), `${A}.anyOf[0]`, /not a valid attribute value/],
    ["attribute value of 101 characters", attributes({ name: "attr.custom.a", anyOf: ["v".repeat(101)] }), `${A}.anyOf[0]`, /at most 100/],
    ["empty attribute value", attributes({ name: "attr.custom.a", anyOf: [""] }), `${A}.anyOf[0]`, /must not be empty/],
    [
      "duplicate attribute names differing in case",
      attributes({ name: "attr.custom.a", anyOf: ["x"] }, { name: "ATTR.Custom.A", anyOf: ["y"] }),
      `${H}.attributes[1].name`,
      /duplicate attribute requirement/,
    ],
    ["attribute value using Session.*", attributes({ name: "attr.custom.a", anyOf: ["{{Session.WorkingDirectory}}"] }), `${A}.anyOf[0]`, /Session\.WorkingDirectory does not exist/],
    ["attribute value using Task.Param.*", host({ attributes: [{ name: "attr.custom.a", anyOf: ["{{Task.Param.F}}"] }] }), `${A}.anyOf[0]`, /Task\.Param\.F does not exist/],
    ["attribute value using Param of a PATH parameter", host({ attributes: [{ name: "attr.custom.a", anyOf: ["{{Param.P}}"] }] }, [{ name: "P", type: "PATH" }]), `${A}.anyOf[0]`, /use RawParam\.P/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});
