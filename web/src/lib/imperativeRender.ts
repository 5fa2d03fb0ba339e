import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot } from 'react-dom/client';

// antd-mobile's imperative Toast and Dialog render nothing on React 19 without this. Imported
// (for this effect) by what shows them: the pages' shared chunk and the toast loaded on demand,
// so its renderer helpers stay out of the home route's first download.
unstableSetRender((node, container) => {
  const root = createRoot(container);
  root.render(node);
  return async () => root.unmount();
});
