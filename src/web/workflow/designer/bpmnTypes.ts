/** The few bpmn-js services the hand-written panels call, typed as they use them. */
export interface BusinessObject {
  id: string;
  name?: string;
  $type: string;
  $parent?: BusinessObject;
  get(name: string): unknown;
  loopCharacteristics?: BusinessObject & { isSequential?: boolean; completionCondition?: { body?: string } };
  conditionExpression?: { body?: string };
  sourceRef?: BusinessObject;
  calledElement?: string;
  targetNamespace?: string;
}

export interface DiagramElement {
  id: string;
  type: string;
  businessObject: BusinessObject;
  outgoing?: DiagramElement[];
  source?: DiagramElement;
  /** Set on a label: the element whose name it shows. */
  labelTarget?: DiagramElement;
}

export interface Modeling {
  updateProperties(element: DiagramElement, props: Record<string, unknown>): void;
  updateModdleProperties?(element: DiagramElement, target: unknown, props: Record<string, unknown>): void;
}

export interface BpmnFactoryLike {
  create(type: string, attrs?: Record<string, unknown>): unknown;
}

export interface Services {
  get<T>(name: string): T;
  on(event: string, fn: (e: { element?: DiagramElement; newSelection?: DiagramElement[] }) => void): void;
  off(event: string, fn: (e: { element?: DiagramElement; newSelection?: DiagramElement[] }) => void): void;
}
