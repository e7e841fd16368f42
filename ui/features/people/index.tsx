/**
 * People screens (agents, employees, customers). The route table imports these names; each
 * is a page component receiving the route params.
 */
import { ComingSoon } from "../common/ComingSoon";

type Page = (props: { params: Record<string, string | undefined> }) => React.ReactElement;
export const AgentsList: Page = () => <ComingSoon title="Agents" />;
export const AgentDetail: Page = () => <ComingSoon title="Agent" />;
export const EmployeesList: Page = () => <ComingSoon title="Employees" />;
export const EmployeeDetail: Page = () => <ComingSoon title="Employee" />;
export const CustomersList: Page = () => <ComingSoon title="Customers" />;
export const CustomerDetail: Page = () => <ComingSoon title="Customer" />;
