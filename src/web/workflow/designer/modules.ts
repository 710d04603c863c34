/**
 * The designer's own bpmn-js modules (spec 2.4): the palette's entries, the context pad's appends,
 * and default names for unnamed start, end and intermediate throw events.
 */
type Entries = Record<string, unknown>;
interface Shape {
  type: string;
  businessObject: { name?: string; $type: string };
  labelTarget?: unknown;
}
interface Injector {
  get<T = unknown>(name: string): T;
}

const PALETTE_KEEP = [
  'hand-tool',
  'lasso-tool',
  'space-tool',
  'global-connect-tool',
  'tool-separator',
  'create.start-event',
  'create.intermediate-event',
  'create.end-event',
  'create.exclusive-gateway',
  'create.task',
  'create.subprocess-expanded',
  'create.data-object',
  'create.data-store',
  'create.participant-expanded',
  'create.group',
];
const PAD_KEEP = ['append.end-event', 'append.gateway', 'append.intermediate-event', 'connect', 'delete'];

interface Factory {
  createShape(attrs: { type: string }): unknown;
}
interface Create {
  start(event: unknown, shape: unknown, context?: unknown): void;
}
interface AutoPlace {
  append(source: unknown, shape: unknown): void;
}
interface Translate {
  (text: string): string;
}

function createEntry(
  group: string,
  className: string,
  title: string,
  type: string,
  injector: Injector,
  append?: unknown,
) {
  const factory = injector.get<Factory>('elementFactory');
  const create = injector.get<Create>('create');
  const start = (event: unknown) =>
    create.start(event, factory.createShape({ type }), append ? { source: append } : undefined);
  const click = append
    ? () => injector.get<AutoPlace>('autoPlace').append(append, factory.createShape({ type }))
    : start;
  return { group, className, title, action: { dragstart: start, click } };
}

class LimsPalette {
  static $inject = ['palette', 'injector', 'translate'];
  constructor(
    palette: { registerProvider(p: number, provider: unknown): void },
    private injector: Injector,
    private translate: Translate,
  ) {
    palette.registerProvider(500, this);
  }
  getPaletteEntries() {
    return (entries: Entries) => {
      const kept: Entries = Object.fromEntries(Object.entries(entries).filter(([k]) => PALETTE_KEEP.includes(k)));
      kept['create.user-task'] = createEntry(
        'activity',
        'bpmn-icon-user-task',
        this.translate('Create user task'),
        'bpmn:UserTask',
        this.injector,
      );
      kept['create.call-activity'] = createEntry(
        'activity',
        'bpmn-icon-call-activity',
        this.translate('Create call activity'),
        'bpmn:CallActivity',
        this.injector,
      );
      return kept;
    };
  }
}

class LimsContextPad {
  static $inject = ['contextPad', 'injector', 'translate'];
  constructor(
    contextPad: { registerProvider(p: number, provider: unknown): void },
    private injector: Injector,
    private translate: Translate,
  ) {
    contextPad.registerProvider(500, this);
  }
  getContextPadEntries(element: Shape) {
    return (entries: Entries) => {
      const kept: Entries = Object.fromEntries(Object.entries(entries).filter(([k]) => PAD_KEEP.includes(k)));
      if (!('append.end-event' in entries)) return kept;
      kept['append.user-task'] = createEntry(
        'model',
        'bpmn-icon-user-task',
        this.translate('Append user task'),
        'bpmn:UserTask',
        this.injector,
        element,
      );
      kept['append.call-activity'] = createEntry(
        'model',
        'bpmn-icon-call-activity',
        this.translate('Append call activity'),
        'bpmn:CallActivity',
        this.injector,
        element,
      );
      return kept;
    };
  }
}

const DEFAULT_NAMES: Record<string, string> = {
  'bpmn:StartEvent': '开始',
  'bpmn:EndEvent': '完成',
  'bpmn:IntermediateThrowEvent': '终止',
};

class DefaultNames {
  static $inject = ['eventBus', 'modeling'];
  constructor(
    eventBus: { on(e: string, fn: (event: { context: { shape: Shape } }) => void): void },
    modeling: { updateLabel(s: Shape, n: string): void },
  ) {
    eventBus.on('commandStack.shape.create.postExecuted', ({ context }) => {
      const { shape } = context;
      const name = DEFAULT_NAMES[shape.type];
      if (name && !shape.labelTarget && !shape.businessObject.name) modeling.updateLabel(shape, name);
    });
  }
}

export const limsDesignerModule = {
  __init__: ['limsPalette', 'limsContextPad', 'limsDefaultNames'],
  limsPalette: ['type', LimsPalette],
  limsContextPad: ['type', LimsContextPad],
  limsDefaultNames: ['type', DefaultNames],
};
