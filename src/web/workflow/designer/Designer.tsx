import { useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Form, Input, Modal, Space, Spin, Upload } from 'antd';
import Modeler from 'bpmn-js/lib/Modeler';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import { BpmnPropertiesPanelModule, BpmnPropertiesProviderModule } from 'bpmn-js-properties-panel';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn-embedded.css';
import '@bpmn-io/properties-panel/dist/assets/properties-panel.css';
import './designer.css';
import { feedback, notify } from '../../feedback/feedback';
import { errorMessage } from '../../api/http';
import { formControls, formPages, modelXml, positions, saveModelXml, specimenSteps, type ModelRow } from '../api';
import type { DiagramElement, Services } from './bpmnTypes';
import { ElementPanel, type PanelData } from './ElementPanel';
import { LintList } from './LintList';
import { moddleExtensions, stampDesigner } from './moddle';
import { limsDesignerModule } from './modules';
import { translateModule } from './translate';
import { isForeign, withLayout } from './foreign';
import { wt } from '../i18n';

/**
 * The designer dialog (spec 2.4): 90 % wide, an 8000×1500 canvas in a 700 px editor area, the
 * properties side panel, view XML, OK and cancel. In view mode the same canvas is read-only and titled
 * 流程追踪. Loaded lazily, so bpmn-js never enters the login or shell bundles.
 */
type Instance = Modeler | NavigatedViewer;

/** What was imported: a model another tool wrote keeps its exporter, and its elements are spared the lab's rules. */
export interface Imported {
  foreign: boolean;
  exempt: ReadonlySet<string>;
}

const OWN: Imported = { foreign: false, exempt: new Set() };

/** Reads XML into the diagram, generating a layout the file lacks; answers what it was. */
async function importInto(
  bpmn: Instance,
  xml: string,
  /** A file the user brought in (drop or choose), not the model's saved diagram. */
  fromFile = false,
): Promise<{ warnings: unknown[]; imported: Imported; laidOut: boolean }> {
  const ready = await withLayout(xml, bpmn.get('moddle'));
  const { warnings } = await bpmn.importXML(ready.xml);
  const definitions = bpmn.getDefinitions() as { exporter?: string; rootElements?: unknown[] };
  if (!isForeign(definitions, fromFile || ready.laidOut)) return { warnings, imported: OWN, laidOut: ready.laidOut };
  const ids = (bpmn.get('elementRegistry') as { getAll(): { businessObject: { id?: string } }[] })
    .getAll()
    .map((e) => e.businessObject.id)
    .filter((id): id is string => Boolean(id));
  return { warnings, imported: { foreign: true, exempt: new Set(ids) }, laidOut: ready.laidOut };
}

export interface DesignerProps {
  model: ModelRow;
  readOnly: boolean;
  onClose: (saved: boolean) => void;
}

function useDiagram(
  model: ModelRow,
  readOnly: boolean,
  container: HTMLDivElement | null,
  panel: HTMLDivElement | null,
) {
  const [instance, setInstance] = useState<Instance>();
  const [element, setElement] = useState<DiagramElement>();
  const [loading, setLoading] = useState(true);
  const [imported, setImported] = useState<Imported>(OWN);
  useEffect(() => {
    // The DOM nodes themselves are the dependencies: a dialog that re-mounts its body gets a new diagram.
    if (!container || (!readOnly && !panel)) return;
    const bpmn = readOnly
      ? new NavigatedViewer({ container, moddleExtensions, additionalModules: [translateModule] })
      : new Modeler({
          container,
          moddleExtensions,
          // General (name, id) open from the start: naming what was just drawn is the first thing done.
          propertiesPanel: { parent: panel, layout: { groups: { general: { open: true } } } },
          additionalModules: [
            BpmnPropertiesPanelModule,
            BpmnPropertiesProviderModule,
            limsDesignerModule,
            translateModule,
          ],
        });
    const services = bpmn as unknown as Services;
    const root = () => (bpmn.get('canvas') as { getRootElement(): DiagramElement }).getRootElement();
    // A selected label (a flow's or an event's name) shows the properties of what it names.
    services.on('selection.changed', (e) => {
      const one = e.newSelection?.length === 1 ? e.newSelection[0]! : undefined;
      setElement(one ? (one.labelTarget ?? one) : root());
    });
    let cancelled = false;
    void (async () => {
      let xml: string;
      try {
        xml = (await modelXml(model.id)).bpmnXml;
      } catch (e) {
        if (cancelled) return;
        console.error('获取反显流程xml失败', e);
        notify.error(errorMessage(e, wt('获取反显流程xml失败')));
        return setLoading(false);
      }
      if (cancelled) return;
      try {
        const { warnings, imported, laidOut } = await importInto(bpmn, xml);
        if (cancelled) return;
        if (laidOut) notify.info(wt('已为没有布局的模型自动生成布局'));
        setImported(imported);
        tellDropped(warnings);
        setElement(root());
        setInstance(bpmn);
      } catch (e) {
        if (cancelled) return;
        console.error('bpmn文档导入失败', e);
        notify.error(wt('bpmn文档导入失败'));
      }
      setLoading(false);
    })();
    return () => {
      cancelled = true;
      bpmn.destroy();
    };
  }, [model.id, readOnly, container, panel]);
  return { instance, element, loading, imported, setImported };
}

/**
 * What bpmn-js could not read (an Activiti or Flowable element our descriptor does not define) is left
 * out of the diagram and so out of the next save: the user is told which, before saving, and the
 * console keeps bpmn-js's own words.
 */
function tellDropped(warnings: unknown[]) {
  if (warnings.length === 0) return;
  console.warn('bpmn文档导入警告', warnings);
  // bpmn-js's types say strings; it hands { message, element, error }.
  const text = (w: unknown) => (typeof w === 'string' ? w : String((w as { message?: unknown }).message ?? ''));
  const names = [...new Set(warnings.map((w) => /unparsable content <([^>\s]+)/.exec(text(w))?.[1] ?? text(w)))];
  feedback.modal.warning({
    title: wt('警告'),
    content: wt('导入时未能识别以下内容，保存后将不再保留：{names}').replace('{names}', names.join('、')),
    okText: wt('确定'),
  });
}

function usePanelData(orgId: number): PanelData {
  const [lookups, setLookups] = useState<Pick<PanelData, 'forms' | 'positions' | 'steps'>>({
    forms: { items: [], unavailable: false },
    positions: { items: [], unavailable: false },
    steps: { items: [], unavailable: false },
  });
  useEffect(() => {
    void Promise.all([formPages(orgId), positions(orgId), specimenSteps()])
      .then(([forms, roles, steps]) => setLookups({ forms, positions: roles, steps }))
      .catch((e: unknown) => notify.error(errorMessage(e, wt('读取表单与岗位失败'))));
  }, [orgId]);
  // Stable per organisation: the condition dialog loads a form's controls again only when it changes.
  const controls = useCallback((formId: string) => formControls(formId, orgId), [orgId]);
  return useMemo(() => ({ ...lookups, controls }), [lookups, controls]);
}

/** An element's documentation as bpmn-js keeps it (the text of its first bpmn:documentation). */
function documentationOf(element: DiagramElement): string {
  const docs = element.businessObject.get('documentation') as { text?: string }[] | undefined;
  return docs?.[0]?.text ?? '';
}

export default function Designer({ model, readOnly, onClose }: DesignerProps) {
  const [canvas, setCanvas] = useState<HTMLDivElement | null>(null);
  const [panel, setPanel] = useState<HTMLDivElement | null>(null);
  const { instance, element, loading, imported, setImported } = useDiagram(model, readOnly, canvas, panel);
  const data = usePanelData(model.orgId);
  const [xmlText, setXmlText] = useState<string>();
  const definitions = useCallback(
    () => (instance instanceof Modeler ? instance.getDefinitions() : undefined),
    [instance],
  );
  const [saving, setSaving] = useState(false);

  const showXml = async () => {
    if (instance) setXmlText((await instance.saveXML({ format: true })).xml ?? '');
  };
  const save = async () => {
    if (!(instance instanceof Modeler)) return;
    setSaving(true);
    try {
      let xml: string;
      let svg: string;
      try {
        // A model from another tool stays theirs: deploy then asks the lab's rules of none of its tasks.
        if (!imported.foreign) stampDesigner(instance.getDefinitions() as { exporter?: string });
        xml = (await instance.saveXML({ format: true })).xml ?? '';
        svg = (await instance.saveSVG()).svg;
      } catch (e) {
        console.error('流程数据生成失败！', e);
        notify.error(wt('流程数据生成失败！'));
        return;
      }
      const result = await saveModelXml(model.id, xml, svg);
      notify.success(result.resultMessage);
      onClose(true);
    } catch (e) {
      notify.error(errorMessage(e, wt('保存失败')));
    } finally {
      setSaving(false);
    }
  };

  /** A file dropped on the canvas or chosen replaces the diagram; saving keeps it as this model. */
  const importFile = async (file: File) => {
    if (!(instance instanceof Modeler)) return;
    try {
      const { warnings, imported: next, laidOut } = await importInto(instance, await file.text(), true);
      if (laidOut) notify.info(wt('已为没有布局的模型自动生成布局'));
      setImported(next);
      tellDropped(warnings);
    } catch (e) {
      console.error('bpmn文档导入失败', e);
      notify.error(wt('bpmn文档导入失败'));
    }
  };

  return (
    <Modal
      open
      width="90%"
      style={{ top: 20 }}
      title={readOnly ? wt('流程追踪') : `${model.name}（${model.key}）`}
      onCancel={() => onClose(false)}
      mask={{ closable: false }}
      // Above the shell's sidebar (z-index 1001), which a 90 % wide dialog reaches.
      zIndex={1010}
      footer={
        <Space>
          {!readOnly && (
            <Upload
              accept=".bpmn,.xml,.bpmn20.xml"
              showUploadList={false}
              // Until the model's own diagram is shown there is no modeler to import into.
              disabled={!instance}
              beforeUpload={(file) => {
                void importFile(file);
                return false;
              }}
            >
              <Button disabled={!instance} data-testid="designer-import">
                {wt('导入文件')}
              </Button>
            </Upload>
          )}
          <Button onClick={() => void showXml()} disabled={!instance} data-testid="view-xml">
            {wt('查看XML')}
          </Button>
          <Button onClick={() => onClose(false)}>{wt('取消')}</Button>
          {!readOnly && (
            <Button
              type="primary"
              loading={saving}
              disabled={!instance}
              onClick={() => void save()}
              data-testid="designer-ok"
            >
              {wt('确定')}
            </Button>
          )}
        </Space>
      }
    >
      <div className="lims-designer">
        <Spin spinning={loading} className="lims-designer-spin" />
        <div
          className="lims-designer-editor"
          data-testid="designer-canvas"
          onDragOver={(e) => {
            if (!readOnly && e.dataTransfer.types.includes('Files')) e.preventDefault();
          }}
          onDrop={(e) => {
            const file = e.dataTransfer.files[0];
            if (readOnly || !file) return;
            e.preventDefault();
            void importFile(file);
          }}
        >
          <div ref={setCanvas} className="lims-designer-canvas" />
        </div>
        <div className="lims-designer-side">
          {readOnly && element && (
            <Form layout="vertical" size="small">
              <Form.Item label="ID">
                <Input disabled value={element.businessObject.id} />
              </Form.Item>
              <Form.Item label={wt('名称')}>
                <Input disabled value={element.businessObject.name ?? ''} />
              </Form.Item>
              <Form.Item label={wt('元素文档')}>
                <Input.TextArea disabled autoSize value={documentationOf(element)} data-testid="view-documentation" />
              </Form.Item>
            </Form>
          )}
          <div ref={setPanel} />
          {instance && (
            <ElementPanel
              services={instance as unknown as Services}
              element={element}
              readOnly={readOnly}
              data={data}
            />
          )}
          {instance instanceof Modeler && (
            <LintList services={instance as unknown as Services} definitions={definitions} exempt={imported.exempt} />
          )}
        </div>
      </div>
      <Modal open={xmlText !== undefined} width="70%" title="XML" footer={null} onCancel={() => setXmlText(undefined)}>
        <pre className="lims-designer-xml" data-testid="xml-text">
          {xmlText}
        </pre>
      </Modal>
    </Modal>
  );
}
