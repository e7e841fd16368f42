/** Scheduling screens (issue 12): workload and pickup/delivery settings, the scheduler, the driver's run. */
export { PickupDeliveriesScreen } from "./PickupDeliveries";
export { SchedulerScreen } from "./Scheduler";
export { WorkloadDetail, WorkloadGrid, WorkloadList } from "./Workload";
