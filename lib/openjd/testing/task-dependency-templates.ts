/**
 * The two complete examples of the TASK_DEPENDENCIES contract (§4, the seed's examples with its
 * slips corrected), as YAML text: shared by the model's tests and the farm's and CLI's refusals.
 */

/** A simulation chain (PreviousFrame on itself) and a render of every Nth time step. */
export const SIM_THEN_RENDER = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: Sim then render
parameterDefinitions:
  - {name: FrameCount, type: INT, default: 10, minValue: 1}
  - {name: TimeStepsPerFrame, type: INT, default: 4, minValue: 1}
steps:
  - name: SimulateTimeStep
    parameterSpace:
      taskParameterDefinitions:
        - name: TimeStepNumber
          type: INT
          range: "0-{{Param.FrameCount * Param.TimeStepsPerFrame - 1}}"
    dependencies:
      - dependsOn: SimulateTimeStep
        dependsOnSubspace:
          - name: TimeStepNumber
            range: ["{{Task.Param.TimeStepNumber - 1}}"]
    script: {actions: {onRun: {command: bash, args: ["-c", "echo step {{Task.Param.TimeStepNumber}}"]}}}
  - name: RenderFrame
    dependencies:
      - dependsOn: SimulateTimeStep
        dependsOnSubspace:
          - name: TimeStepNumber
            range: ["{{Task.Param.Frame * Param.TimeStepsPerFrame}}"]
    parameterSpace:
      taskParameterDefinitions:
        - {name: Frame, type: INT, range: "0-{{Param.FrameCount - 1}}"}
    script: {actions: {onRun: {command: bash, args: ["-c", "echo frame {{Task.Param.Frame}}"]}}}
`;

/** A DAG over an adjacency list, one task per node; the contract's fragment made a whole template. */
export const ADJACENCY_DAG = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: Process a graph
parameterDefinitions:
  - name: GraphAdjList
    type: LIST[LIST[INT]]
    default: [[], [0], [0, 1], [0], [1]]
steps:
  - name: ProcessGraphNode
    parameterSpace:
      taskParameterDefinitions:
        - {name: NodeIndex, type: INT, range: "0-{{len(Param.GraphAdjList) - 1}}"}
    dependencies:
      - dependsOn: ProcessGraphNode
        dependsOnSubspace:
          - name: NodeIndex
            range: "{{Param.GraphAdjList[Task.Param.NodeIndex]}}"
    script: {actions: {onRun: {command: bash, args: ["-c", "echo node {{Task.Param.NodeIndex}}"]}}}
`;
