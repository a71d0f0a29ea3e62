/**
 * A few valid templates to mutate when the OpenJD sample corpus is not on disk, covering job
 * parameters of every type, task parameters with lists, ranges and a combination, environments,
 * embedded files, host requirements, chunking, FEATURE_BUNDLE_1 and both file formats.
 */
import type { SeedTemplate } from "./template-mutator";

const RENDER = `specificationVersion: jobtemplate-2023-09
name: "Render {{Param.Scene}}"
description: A render job
parameterDefinitions:
- name: Scene
  type: STRING
  default: shot_010
  minLength: 1
  maxLength: 64
- name: Frames
  type: STRING
  default: "1-10"
- name: Quality
  type: INT
  default: 5
  minValue: 1
  maxValue: 10
- name: Gamma
  type: FLOAT
  default: 2.2
  allowedValues: [1.0, 2.2, 2.4]
- name: Output
  type: PATH
  objectType: DIRECTORY
  dataFlow: OUT
  default: ./out
jobEnvironments:
- name: Setup
  variables:
    SCENE: "{{Param.Scene}}"
steps:
- name: Render
  hostRequirements:
    amounts:
    - name: amount.worker.vcpu
      min: 2
    attributes:
    - name: attr.worker.os.family
      anyOf: [linux, macos]
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "{{Param.Frames}}"
    - name: Layer
      type: STRING
      range: [beauty, shadow]
    - name: Eye
      type: STRING
      range: [left, right]
    combination: "Frame * (Layer, Eye)"
  script:
    embeddedFiles:
    - name: run
      type: TEXT
      runnable: true
      data: |
        #!/bin/sh
        echo "frame {{Task.Param.Frame}} layer {{Task.Param.Layer}} q={{Param.Quality}}"
    actions:
      onRun:
        command: "{{Task.File.run}}"
        timeout: 600
        cancelation:
          mode: NOTIFY_THEN_TERMINATE
- name: Encode
  dependencies:
  - dependsOn: Render
  script:
    actions:
      onRun:
        command: ffmpeg
        args: ["-i", "{{Param.Output}}", "-gamma", "{{Param.Gamma}}"]
`;

const CHUNKED = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_CHUNKING, FEATURE_BUNDLE_1]
name: Chunked
parameterDefinitions:
- name: Count
  type: INT
  default: 3
steps:
- name: Step1
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: CHUNK[INT]
      range: "1-100"
      chunks:
        defaultTaskCount: "{{Param.Count}}"
        targetRuntimeSeconds: 60
        rangeConstraint: CONTIGUOUS
  script:
    actions:
      onRun:
        command: bash
        args: ["-c", "echo {{Task.Param.Frame}}"]
`;

const ENVIRONMENT = `specificationVersion: environment-2023-09
parameterDefinitions:
- name: Prefix
  type: STRING
  default: /opt
environment:
  name: Tools
  description: Adds tools to PATH
  script:
    actions:
      onEnter:
        command: echo
        args: ["{{Param.Prefix}}"]
      onExit:
        command: echo
  variables:
    TOOLS: "{{Param.Prefix}}/bin"
`;

const JSON_JOB = JSON.stringify(
  {
    specificationVersion: "jobtemplate-2023-09",
    name: "JsonJob",
    parameterDefinitions: [{ name: "N", type: "INT", default: 2, minValue: 1 }],
    steps: [
      {
        name: "Step1",
        parameterSpace: { taskParameterDefinitions: [{ name: "I", type: "INT", range: "1-{{Param.N}}" }] },
        script: { actions: { onRun: { command: "echo", args: ["{{Task.Param.I}}"] } } },
      },
    ],
  },
  null,
  2,
);

export const SEED_TEMPLATES: readonly SeedTemplate[] = [
  { name: "seed:render.yaml", text: RENDER, format: "yaml" },
  { name: "seed:chunked.yaml", text: CHUNKED, format: "yaml" },
  { name: "seed:environment.yaml", text: ENVIRONMENT, format: "yaml" },
  { name: "seed:json-job.json", text: JSON_JOB, format: "json" },
];
