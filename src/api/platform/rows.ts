// Every family's table loaded at once: importing this module declares all the rows, so whoever
// enumerates operations (the sandbox's request check, the contract suite, the fault matrix) sees
// them all without constructing a client. A family converted to a table is added here.
import './account';
import './admin/appConfig';
import './admin/attributes';
import './admin/embed';
import './admin/integrations';
import './admin/roles';
import './admin/scim';
import './admin/settings';
import './admin/users';
import './build/branches';
import './build/creation';
import './build/files';
import './build/git';
import './build/upload';
import './dashboardExports';
import './dashboards';
import './databricksMetricViews';
import './dbtSync';
import './deployments';
import './embedDashboards';
import './environmentTokens';
import './envVars';
import './folders';
import './github';
import './health';
import './me';
import './notificationItem';
import './notifications';
import './platformServices';
import './reports';
import './workbooks';
import './workspace';
import './workspaceFeed';

export { declaredOperations, type Operation } from './operation';
