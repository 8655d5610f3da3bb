// The data model in the editor, activation part: the `dpmodel:` file system is registered here
// (a model folder restored with the window needs it at once) and delegates to the feature
// (modelFeature.ts), which loads on first use of the file system or of a model command.
import * as vscode from 'vscode';
import { COMMANDS } from '../commands';
import { commandIds, LazyFeature, lazyModule } from '../lazy';
import type { Services } from '../services';
import type * as ModelModule from './modelFeature';
import type { ModelFeature } from './modelFeature';

export type { ModelFeature } from './modelFeature';

/** Same as modelPaths.ts's MODEL_SCHEME. */
const MODEL_SCHEME = 'dpmodel';

export function register(services: Services): {
  readonly feature: ModelFeature;
  disposables: vscode.Disposable[];
} {
  const lazy = new LazyFeature(commandIds(COMMANDS, 'dashboardPlatform.model.'), () => {
    const mod = lazyModule<typeof ModelModule>('src/model/modelFeature.ts');
    const { feature, disposables } = mod.createModelFeature(services);
    services.context.subscriptions.push(...disposables);
    return feature;
  });
  const fs = () => lazy.get().fs;
  const changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  let forwarding: vscode.Disposable | undefined;
  const provider: vscode.FileSystemProvider = {
    get onDidChangeFile() {
      return changed.event;
    },
    watch: () => new vscode.Disposable(() => undefined),
    stat: (uri) => start().stat(uri),
    readDirectory: (uri) => start().readDirectory(uri),
    readFile: (uri) => start().readFile(uri),
    writeFile: (uri, content, options) => start().writeFile(uri, content, options),
    createDirectory: (uri) => start().createDirectory(uri),
    delete: (uri) => start().delete(uri),
    rename: (from, to, options) => start().rename(from, to, options),
  };
  /** Loads the feature and forwards its change events through the provider registered here. */
  function start() {
    const real = fs();
    forwarding ??= real.onDidChangeFile((e) => changed.fire(e));
    return real;
  }
  return {
    get feature() {
      start();
      return lazy.get();
    },
    disposables: [
      lazy,
      changed,
      { dispose: () => forwarding?.dispose() },
      vscode.workspace.registerFileSystemProvider(MODEL_SCHEME, provider, { isCaseSensitive: true }),
    ],
  };
}
