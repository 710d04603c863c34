import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A menu's icon by its @ant-design/icons name, loaded on first use: a configurator may name any icon in
 * schemas/menus.json without a rebuild, and the app does not carry all 800 icons in its first download.
 */
const modules = import.meta.glob<{ default: ComponentType }>(
  '../../../node_modules/@ant-design/icons/es/icons/*{Outlined,Filled,TwoTone}.js',
);
// lazy() only wraps the loader; nothing is fetched until an icon renders.
const icons = new Map(Object.entries(modules).map(([file, load]) => [file.replace(/^.*\/|\.js$/g, ''), lazy(load)]));

export function MenuIcon({ name }: { name: string | undefined }) {
  const Icon = name ? icons.get(name) : undefined;
  if (!Icon) return null;
  return (
    <Suspense fallback={<span className="anticon menu-icon-placeholder" />}>
      {/* eslint-disable-next-line react-hooks/static-components -- one lazy component per name, made at module load */}
      <Icon />
    </Suspense>
  );
}
