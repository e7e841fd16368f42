/**
 * People screens (agents, employees, customers). The route table imports these names; each
 * is a page component receiving the route params.
 */
export { AgentDetail, AgentsList } from "./Agents";
export { CustomerDetail, CustomersList } from "./Customers";
export { EmployeeDetail, EmployeesList } from "./Employees";
